// How a result's layout carries over to the operand of a data-movement
// operation, so that the operation can run on each partition's shards with
// no communication: a broadcast's kept dimensions, a transpose's permuted
// ones, and a reshape's dimensions that survive, split or merge with the
// tiling on their major part.
#pragma once

#include <optional>
#include <vector>

#include "core/compiler/spmd/sharding_grid.h"
#include "core/hlo/shape.h"

namespace systolic::spmd {

// Result dimension dimensions[i] holds operand dimension i; the result's
// other tiles become replication.
ShardingGrid BroadcastOperandGrid(const ShardingGrid& result, const std::vector<int64_t>& dimensions);

// Result dimension k is operand dimension permutation[k].
ShardingGrid TransposeOperandGrid(const ShardingGrid& result,
                                  const std::vector<int64_t>& permutation);

// The operand layout under which reshaping each shard gives the result's
// shards, or nullopt when the result tiles a dimension the reshape mixes
// with others (it is then computed whole).
std::optional<ShardingGrid> ReshapeOperandGrid(const ShardingGrid& result, const Shape& operand,
                                               const Shape& result_shape);

}  // namespace systolic::spmd
