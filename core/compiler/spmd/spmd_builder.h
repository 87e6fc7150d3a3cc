// What the partitioner adds to a per-partition program, made in one place:
// the partition's id and its tile offsets (looked up in constant tables
// indexed by partition-id), padding and slicing of shards, masking of the
// padding of uneven shards, and the collectives (all-gather, all-reduce,
// reduce-scatter, all-to-all, collective-permute) over groups of partitions.
// Collectives get fresh channel ids; all-gather, all-reduce and
// reduce-scatter list flattened device ids, so they work for any number of
// replicas, and all-to-all and collective-permute (which have no such
// option) name partitions of one replica.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/hlo_pass_interface.h"
#include "core/compiler/spmd/sharding_grid.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/literal.h"

namespace systolic::spmd {

class SpmdBuilder {
 public:
  // `laid_out`: give new array shapes a row-major layout (the module's
  // shapes have layouts).
  // Each collective added is counted in `log` ("inserted all-gather"); sums
  // across partitions mark it as changing numerics (a new summation order).
  SpmdBuilder(HloComputation* computation, int64_t num_partitions, int64_t num_replicas,
              int64_t* next_channel_id, bool laid_out, PassRunLog* log);

  HloComputation* computation() const { return computation_; }
  int64_t num_partitions() const { return num_partitions_; }
  // Adds to the computation; what is added while partitioning an
  // instruction carries its metadata and provenance (see set_source).
  HloInstruction* Add(std::unique_ptr<HloInstruction> instruction);
  void set_source(const HloInstruction* original) { source_ = original; }

  // An array shape with the module's layout convention.
  Shape ArrayShape(PrimitiveType type, std::vector<int64_t> dimensions) const;

  // values[partition] as an s32 scalar on each partition.
  HloInstruction* PerPartition(const std::vector<int64_t>& values);
  // The first element each partition holds along every dimension of an
  // array of `global` shape laid out by `grid` (s32 scalars).
  std::vector<HloInstruction*> Offsets(const ShardingGrid& grid, const Shape& global);

  HloInstruction* ScalarConstant(PrimitiveType type, double value);
  HloInstruction* Broadcast(HloInstruction* scalar, const Shape& shape);
  // Slices [0, sizes) (sizes no larger than x's) or pads the high end with
  // zeros, per dimension, to exactly `sizes`.
  HloInstruction* Resize(HloInstruction* x, const std::vector<int64_t>& sizes);
  HloInstruction* DynamicSlice(HloInstruction* x, const std::vector<HloInstruction*>& offsets,
                               const std::vector<int64_t>& sizes);
  // pred of `dimensions`: whether each element's index along `dimension`,
  // counted from this partition's `first` (an s32 scalar), lies in
  // [begin, end) (no lower bound when begin is nullopt).
  HloInstruction* IndexWithin(const std::vector<int64_t>& dimensions, int64_t dimension,
                              HloInstruction* first, std::optional<int64_t> begin, int64_t end);
  // x where `inside`, else the scalar `fill`.
  HloInstruction* SelectOr(HloInstruction* inside, HloInstruction* x, HloInstruction* fill);
  // Elements of x (a shard of `global` under `grid`) that lie past the end
  // of the array along `dimensions` are replaced by the scalar `value`, so
  // that padding adds nothing to a sum (0) or a maximum (-inf). x itself
  // when no such dimension is uneven.
  HloInstruction* MaskPadding(HloInstruction* x, const ShardingGrid& grid, const Shape& global,
                              const std::vector<int64_t>& dimensions, HloInstruction* value);

  // Groups are of partition ids; the collectives name flattened device ids.
  HloInstruction* AllGather(HloInstruction* x, int64_t dimension,
                            const std::vector<std::vector<int64_t>>& groups);
  HloInstruction* AllReduce(HloInstruction* x, HloComputation* reducer,
                            const std::vector<std::vector<int64_t>>& groups);
  HloInstruction* ReduceScatter(HloInstruction* x, HloComputation* reducer, int64_t dimension,
                                const std::vector<std::vector<int64_t>>& groups);
  HloInstruction* AllToAll(HloInstruction* x, int64_t dimension,
                           const std::vector<std::vector<int64_t>>& groups);
  HloInstruction* CollectivePermute(HloInstruction* x,
                                    const std::vector<std::pair<int64_t, int64_t>>& pairs);

 private:
  CollectiveDeviceList DeviceGroups(const std::vector<std::vector<int64_t>>& groups) const;
  HloInstruction* AddCollective(std::unique_ptr<HloInstruction> collective);

  HloComputation* computation_;
  int64_t num_partitions_;
  int64_t num_replicas_;
  int64_t* next_channel_id_;
  bool laid_out_;
  PassRunLog* log_;
  const HloInstruction* source_ = nullptr;
  HloInstruction* partition_id_ = nullptr;
  std::map<std::vector<int64_t>, HloInstruction*> per_partition_;
};

}  // namespace systolic::spmd
