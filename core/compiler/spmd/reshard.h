// Changing how an array is laid out across partitions, with the cheapest
// collectives that do it:
//   - the same tiles on other partitions: one collective-permute;
//   - a tiling moved from one dimension to another: one all-to-all;
//   - otherwise: all-gather the dimensions whose tiling changes, then each
//     partition slices its new tile out (no communication).
// Shards are padded to equal sizes (ceil(size / tiles)); what lies past
// the array's end is undefined until masked (SpmdBuilder::MaskPadding).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/spmd/sharding_grid.h"
#include "core/compiler/spmd/spmd_builder.h"
#include "core/hlo/shape.h"

namespace systolic::spmd {

// An array of the partitioned program: this partition's shard of `global`,
// laid out by `grid`.
struct PartitionedArray {
  HloInstruction* local = nullptr;
  Shape global;
  ShardingGrid grid;
};

// The (padded) shard dimensions of `global` under `grid`.
std::vector<int64_t> ShardDimensions(const ShardingGrid& grid, const Shape& global);

// `value`'s shard under `target`. Errors: grids with different manual
// groups (manual values are never moved between groups).
absl::StatusOr<HloInstruction*> Reshard(SpmdBuilder& builder, const PartitionedArray& value,
                                        const ShardingGrid& target);

}  // namespace systolic::spmd
