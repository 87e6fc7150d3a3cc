// Model FLOPs utilisation of a training profile, as training reports give
// it: the FLOPs the model needs per step (6 x parameters x tokens, plus
// attention; rematerialised work not counted) over what the chips could do
// in the step's simulated time.
#pragma once

#include <cstdint>
#include <optional>

#include "core/trace/profile.h"

namespace systolic::analysis {

struct StepUtilization {
  int64_t step = 0;            // the step measured: the last one (caches warm)
  double step_seconds = 0;
  double model_flops = 0;      // per step, over every chip
  int64_t chips = 0;
  double peak_flops_per_second = 0;  // of one chip
  double model_flops_per_second() const { return model_flops / step_seconds; }
  // Achieved over peak, in [0, 1] for a model that fits its figures.
  double mfu() const { return model_flops_per_second() / (peak_flops_per_second * double(chips)); }
};

// Nullopt when the profile has no timed step or no chip peak.
std::optional<StepUtilization> ModelFlopsUtilization(const trace::Profile& profile,
                                                     double model_flops_per_step, int64_t chips);

}  // namespace systolic::analysis
