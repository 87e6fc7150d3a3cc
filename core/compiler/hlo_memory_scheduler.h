// Orders the instructions of every computation to keep memory low (XLA's
// list scheduler): among the instructions whose operands are ready, run the
// one that frees the most bytes net of what it allocates, ties broken by the
// original order. The list schedule is kept unless plain post order peaks
// lower. The module is marked scheduled; buffer assignment follows the
// schedule.
#pragma once

#include <cstdint>
#include <vector>

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class HloMemoryScheduler : public HloPassInterface {
 public:
  absl::string_view name() const override { return "scheduler"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  // The memory-aware order of one computation.
  static std::vector<HloInstruction*> ListSchedule(const HloComputation& computation);
  // The most bytes live at once when `computation` runs in `order` (its
  // parameters and constants included).
  static int64_t PeakMemory(const HloComputation& computation,
                            const std::vector<HloInstruction*>& order);
};

}  // namespace systolic
