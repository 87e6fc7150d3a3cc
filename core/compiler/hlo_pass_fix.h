// Runs a pass (or a pipeline) again and again until it reports no change,
// as XLA's HloPassFix; an iteration cap guards against two rewrites undoing
// each other forever.
#pragma once

#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_pass_pipeline.h"
#include "core/hlo/status_macros.h"

namespace systolic {

template <typename Pass>
class HloPassFix : public Pass {
 public:
  static constexpr int kDefaultIterationLimit = 25;

  template <typename... Args>
  explicit HloPassFix(Args&&... args) : Pass(std::forward<Args>(args)...) {}

  void set_iteration_limit(int limit) { iteration_limit_ = limit; }
  // Iterations the last Run took (the last one changed nothing unless the
  // limit was reached).
  int iterations() const { return iterations_; }

  absl::StatusOr<bool> Run(HloModule* module) override {
    bool changed = false;
    for (iterations_ = 1; iterations_ <= iteration_limit_; ++iterations_) {
      if constexpr (std::is_base_of_v<HloPassPipeline, Pass>) this->set_iteration(iterations_);
      SYSTOLIC_ASSIGN_OR_RETURN(bool changed_this_time, Pass::Run(module));
      if (!changed_this_time) return changed;
      changed = true;
    }
    iterations_ = iteration_limit_;
    this->run_log().AddDecision(absl::StrCat("stopped after ", iteration_limit_,
                                             " iterations without reaching a fixed point"));
    return changed;
  }

 private:
  int iteration_limit_ = kDefaultIterationLimit;
  int iterations_ = 0;
};

}  // namespace systolic
