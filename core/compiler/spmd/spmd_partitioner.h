// The SPMD partitioner: rewrites a module whose values carry shardings (run
// sharding propagation first) into the one program every partition runs on
// its own shards, with the collectives each operation and each change of
// layout needs. Values without a sharding are replicated.
//
// Per operation:
//   elementwise, broadcast, transpose, reshape (dimensions kept, split or
//   merged): computed on the shards, operands moved to the result's layout;
//   dot: the operands' layout decides between computing the result's tiles
//   directly and summing partial products over sharded contracting
//   dimensions (all-reduce, or reduce-scatter when the result is split the
//   same way); see dot_partitioning.h;
//   reduce: partial reductions over sharded reduced dimensions combined by
//   an all-reduce (padding masked with the initial value);
//   convolution and reduce-window split along a spatial dimension: halos
//   exchanged with collective-permute; see windowed_partitioning.h;
//   while and conditional: their computations partitioned with the loop
//   state's (the branches') layouts;
//   manual values: left as they are;
//   anything else: computed whole on every partition from gathered
//   operands, then sliced to its layout.
// Uneven dimensions are padded to equal shards; reductions and dots mask
// the padding first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/compiler/hlo_pass_interface.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

class SpmdPartitioner : public HloPassInterface {
 public:
  // `num_partitions` 0: the module's num_partitions.
  explicit SpmdPartitioner(int64_t num_partitions = 0) : num_partitions_(num_partitions) {}

  absl::string_view name() const override { return "spmd-partitioner"; }
  // Does nothing to a module that needs no partitioning.
  absl::StatusOr<bool> Run(HloModule* module) override;

  // More than one partition, some instruction of the entry (or what it
  // calls) laid out by a sharding other than {manual}, and the module not
  // already partitioned (unless its use_spmd_partitioning says otherwise:
  // false never partitions, true always does when shardings ask for it).
  static bool NeedsPartitioning(const HloModule& module, int64_t num_partitions = 0);

  // Why `module` is taken to be the output of XLA's SPMD partitioner, whose
  // shardings describe the program before it was cut (so partitioning it
  // again would cut it twice); nullopt when nothing says so. The signs: an
  // entry computation named "…_spmd" (the partitioner's own name for its
  // result) or a scheduled module (XLA schedules only after partitioning).
  static std::optional<std::string> AlreadyPartitionedReason(const HloModule& module);

  // One line on whether and why `module` is partitioned over
  // `num_partitions` (0: the module's), for `compile --stats`.
  static std::string DescribeDecision(const HloModule& module, int64_t num_partitions = 0);

 private:
  int64_t num_partitions_;
};

}  // namespace systolic
