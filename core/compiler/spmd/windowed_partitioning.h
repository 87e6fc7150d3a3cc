// Partitioning convolution and reduce-window. Batch and output-feature
// tiles need nothing; a spatial dimension split across partitions needs
// each partition's window to reach into its neighbours' rows: those rows
// (the halo) come over collective-permutes, rows past the array's edges
// take the padding value, and each partition runs the operation on its
// window with no padding of its own along that dimension. Any stride and
// window dilation; halos wider than a shard, base dilation and grouped
// convolutions split on their features are left to the caller (nullopt).
#pragma once

#include <optional>

#include "absl/status/statusor.h"
#include "core/compiler/spmd/reshard.h"
#include "core/compiler/spmd/spmd_builder.h"

namespace systolic::spmd {

// `op` (a convolution, or a single-input reduce-window) under `result`
// from its operands' shards: `input`, and `second` (the kernel, or the
// initial value).
absl::StatusOr<std::optional<HloInstruction*>> PartitionWindowed(SpmdBuilder& builder,
                                                                 const HloInstruction& op,
                                                                 const PartitionedArray& input,
                                                                 const PartitionedArray& second,
                                                                 const ShardingGrid& result);

}  // namespace systolic::spmd
