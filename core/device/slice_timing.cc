#include "core/device/slice_timing.h"

#include <cmath>

#include "core/device/chip_figures.h"
#include "core/device/ici_collective_cost_model.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {

int64_t SliceTiming::StartCycleOf(const std::string& instruction) const {
  for (const OpTiming& op : chip.ops) {
    if (op.instruction == instruction) return op.start_cycle;
  }
  return -1;
}

absl::StatusOr<SliceTiming> TimeCompiledModuleOnSlice(const HloModule& module, const Slice& slice,
                                                      std::optional<SpmdDeviceCounts> devices,
                                                      LoweringOptions lowering) {
  SliceTiming timing;
  timing.slice = slice.Name();
  timing.devices = devices ? *devices : RequiredDeviceCounts(module);
  SYSTOLIC_ASSIGN_OR_RETURN(timing.collectives,
                            TimeModuleCollectives(module, slice.topology, timing.devices));
  lowering.collective_cycles.clear();
  const double clock = ClockHz(slice.spec);
  for (const CollectiveTiming& c : timing.collectives) {
    lowering.collective_cycles[c.instruction] = int64_t(std::ceil(c.seconds() * clock));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(timing.chip, TimeCompiledModule(module, slice.spec, lowering));
  return timing;
}

absl::StatusOr<TimedSliceCompilation> CompileAndTimeOnSlice(std::unique_ptr<HloModule> module,
                                                            const Slice& slice,
                                                            std::optional<SpmdDeviceCounts> devices,
                                                            CompileOptions options,
                                                            const LoweringOptions& lowering) {
  TimedSliceCompilation result;
  // The scheduler plans with the collective times the slice's timing gives.
  IciCollectiveCostModel ici(slice.topology, devices);
  if (options.collective_cost_model == nullptr) options.collective_cost_model = &ici;
  SYSTOLIC_ASSIGN_OR_RETURN(result.compilation,
                            CompileForChip(std::move(module), slice.spec, std::move(options)));
  SYSTOLIC_ASSIGN_OR_RETURN(
      result.timing, TimeCompiledModuleOnSlice(*result.compilation.module, slice, devices, lowering));
  return result;
}

}  // namespace systolic::device
