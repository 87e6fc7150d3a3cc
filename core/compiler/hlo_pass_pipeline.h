// An ordered list of passes run one after the other, itself a pass (so
// pipelines nest). After every pass it can verify the module (on by default
// in debug builds) and record a snapshot into a CompilationHistory.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/compiler/compilation_history.h"
#include "core/compiler/hlo_pass_interface.h"
#include "core/hlo/hlo_verifier.h"

namespace systolic {

class HloPassPipeline : public HloPassInterface {
 public:
  explicit HloPassPipeline(std::string name);

  absl::string_view name() const override { return name_; }
  bool IsPassPipeline() const override { return true; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  template <typename T, typename... Args>
  T& AddPass(Args&&... args) {
    auto pass = std::make_unique<T>(std::forward<Args>(args)...);
    T& ref = *pass;
    passes_.push_back(std::move(pass));
    return ref;
  }
  void AddPass(std::unique_ptr<HloPassInterface> pass) { passes_.push_back(std::move(pass)); }
  const std::vector<std::unique_ptr<HloPassInterface>>& passes() const { return passes_; }

  // Runs VerifyHloModule after every pass; a failure names the pass.
  // Nested pipelines inherit the setting of the pipeline that runs them.
  void set_verify_between_passes(bool verify) { verify_ = verify; }
  bool verify_between_passes() const { return verify_; }
  void set_verifier_options(HloVerifierOptions options) { verifier_options_ = options; }

  // Where snapshots go (none when null). Nested pipelines inherit it.
  void set_history(CompilationHistory* history) { history_ = history; }
  CompilationHistory* history() const { return history_; }

  static constexpr bool kVerifyByDefault =
#ifdef NDEBUG
      false;
#else
      true;
#endif

 protected:
  // Used by HloPassFix to tell the iterations apart in snapshot names.
  void set_iteration(int iteration) { iteration_ = iteration; }

 private:
  std::string Path() const;

  std::string name_;
  std::vector<std::unique_ptr<HloPassInterface>> passes_;
  bool verify_ = kVerifyByDefault;
  HloVerifierOptions verifier_options_;
  CompilationHistory* history_ = nullptr;
  std::string parent_path_;
  int iteration_ = 0;
};

}  // namespace systolic
