// Combines independent all-reduces (or all-gathers, or reduce-scatters) of
// one computation into one variadic collective, as XLA's combiners do: one
// launch and one synchronisation instead of many small ones, which is what
// a data-parallel step's per-parameter gradient all-reduces need.
//
// Collectives combine when they agree on what they do — replica groups,
// channel (present or not), global device ids, the dimension (all-gather,
// reduce-scatter) and a structurally equal reduction — when neither depends
// on the other (combining them would make a cycle), and while the combined
// operands stay within `max_bytes` and `max_count`. Each original becomes a
// get-tuple-element of the combined collective.
#pragma once

#include <cstdint>

#include "core/compiler/hlo_pass_interface.h"
#include "core/hlo/hlo_opcode.h"

namespace systolic {

struct CollectiveCombinerOptions {
  int64_t max_bytes = int64_t{30} << 20;  // XLA's default threshold
  int64_t max_count = 256;
};

class CollectiveCombiner : public HloPassInterface {
 public:
  // `opcode`: kAllReduce, kAllGather or kReduceScatter.
  explicit CollectiveCombiner(HloOpcode opcode, CollectiveCombinerOptions options = {});

  // "all-reduce-combiner", "all-gather-combiner", "reduce-scatter-combiner".
  absl::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  HloOpcode opcode_;
  CollectiveCombinerOptions options_;
  std::string name_;
};

}  // namespace systolic
