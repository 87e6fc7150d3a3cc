#include "core/compiler/hlo_pass_pipeline.h"

#include <chrono>

#include "absl/strings/str_cat.h"

namespace systolic {

HloPassPipeline::HloPassPipeline(std::string name) : name_(std::move(name)) {}

std::string HloPassPipeline::Path() const {
  std::string self = iteration_ > 0 ? absl::StrCat(name_, "#", iteration_) : name_;
  return parent_path_.empty() ? self : absl::StrCat(parent_path_, "/", self);
}

absl::StatusOr<bool> HloPassPipeline::Run(HloModule* module) {
  const std::string path = Path();
  bool changed = false;
  for (const auto& pass : passes_) {
    pass->run_log().Clear();
    if (pass->IsPassPipeline()) {
      auto* child = static_cast<HloPassPipeline*>(pass.get());
      child->history_ = history_;
      child->verify_ = verify_;
      child->verifier_options_ = verifier_options_;
      child->parent_path_ = path;
    }
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<bool> pass_changed = pass->Run(module);
    const int64_t duration_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - start)
                                    .count();
    if (!pass_changed.ok()) {
      if (pass->IsPassPipeline()) return pass_changed.status();
      return absl::Status(pass_changed.status().code(),
                          absl::StrCat("pass ", pass->name(), " (", path, ") failed: ",
                                       pass_changed.status().message()));
    }
    changed |= *pass_changed;
    if (pass->IsPassPipeline()) continue;  // it verified and recorded its own passes
    if (verify_) {
      absl::Status valid = VerifyHloModule(*module, verifier_options_);
      if (!valid.ok()) {
        return absl::InternalError(absl::StrCat("the module is invalid after pass ", pass->name(),
                                                " (", path, "): ", valid.message()));
      }
    }
    if (history_ != nullptr) {
      history_->RecordPass(*module, pass->name(), path, *pass_changed, duration_ns,
                           std::move(pass->run_log()));
      pass->run_log().Clear();
    }
  }
  return changed;
}

}  // namespace systolic
