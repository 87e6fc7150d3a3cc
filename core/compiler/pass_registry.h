// Passes by name, for `systolic compile --passes a,b,c` and for tests that
// run a chosen list instead of the default pipeline.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/compiler/collective_cost_model.h"
#include "core/compiler/cost_model.h"
#include "core/compiler/fusible.h"
#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

// What passes may need from the compilation.
struct PassContext {
  const CostModel* cost_model = nullptr;
  // Collective times for the latency-hiding scheduler; α-β when null.
  const CollectiveCostModel* collective_cost_model = nullptr;
  FusionOptions fusion;
};

// The names CreatePass accepts: dce, cse, constant-folding,
// tuple-simplifier, call-inliner, algsimp, layout-assignment,
// priority-fusion, multi-output-fusion, scheduler, async-collective-conversion,
// latency-hiding-scheduler, sharding-propagation, and "simplification"
// (algsimp, constant-folding, tuple-simplifier, cse and dce to a fixed point).
std::vector<std::string> KnownPassNames();

// A new pass, or an error listing the known names.
absl::StatusOr<std::unique_ptr<HloPassInterface>> CreatePass(absl::string_view name,
                                                             const PassContext& context);

}  // namespace systolic
