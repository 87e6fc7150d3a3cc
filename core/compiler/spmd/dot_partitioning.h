// Partitioning a dot. The dot's iteration space (batch, left rows, right
// columns, contracting dimensions) is laid out over the partitions; each
// operand takes the part of that layout it spans, each partition multiplies
// its shards, and when the contracting dimensions are split the partial
// products are summed over them (all-reduce, or reduce-scatter when the
// result is to be split across exactly those partitions).
//
// The layout of the iteration space is taken from the result's sharding, or
// from either operand's (which keeps a split contracting dimension where it
// is), whichever moves the fewest bytes.
#pragma once

#include "absl/status/statusor.h"
#include "core/compiler/spmd/reshard.h"
#include "core/compiler/spmd/spmd_builder.h"

namespace systolic::spmd {

// `dot`'s shard under `result` from the operands' shards.
absl::StatusOr<HloInstruction*> PartitionDot(SpmdBuilder& builder, const HloInstruction& dot,
                                             const PartitionedArray& lhs,
                                             const PartitionedArray& rhs,
                                             const ShardingGrid& result);

}  // namespace systolic::spmd
