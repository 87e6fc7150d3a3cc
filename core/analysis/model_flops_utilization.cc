#include "core/analysis/model_flops_utilization.h"

namespace systolic::analysis {

std::optional<StepUtilization> ModelFlopsUtilization(const trace::Profile& profile,
                                                     double model_flops_per_step, int64_t chips) {
  const trace::StepRecord* last = nullptr;
  for (const trace::RunRecord& run : profile.runs) {
    for (const trace::StepRecord& step : run.steps) {
      if (step.duration_ps > 0 && (last == nullptr || step.start_ps >= last->start_ps)) {
        last = &step;
      }
    }
  }
  if (last == nullptr || profile.chip.peak_flops_per_second <= 0 || chips < 1) {
    return std::nullopt;
  }
  StepUtilization u;
  u.step = last->number;
  u.step_seconds = double(last->duration_ps) * 1e-12;
  u.model_flops = model_flops_per_step;
  u.chips = chips;
  u.peak_flops_per_second = profile.chip.peak_flops_per_second;
  return u;
}

}  // namespace systolic::analysis
