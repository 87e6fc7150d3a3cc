// The interface every compiler pass implements, in XLA's shape: a name and
// Run(module), which reports whether the module changed. A pass also keeps a
// log of what its last run did (rewrites by name, decisions with their
// reasons), so the studio can say *why* a snapshot differs from the one
// before it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

// What one run of a pass did.
struct PassRunLog {
  // How often each named rewrite fired ("add(A, 0) => A": 3).
  std::map<std::string, int64_t> rewrites;
  // Decisions in words, e.g. "fused %add.3 into %reduce.1: saves 1.2 us".
  // Capped at kMaxDecisions so a huge module keeps a readable log.
  std::vector<std::string> decisions;
  int64_t dropped_decisions = 0;
  // A rewrite fired that may change floating-point results (rounding, the
  // sign of a zero); results then agree within rounding, not bit for bit.
  bool changed_numerics = false;

  static constexpr size_t kMaxDecisions = 1000;

  void CountRewrite(const std::string& rewrite, bool changes_numerics = false) {
    ++rewrites[rewrite];
    changed_numerics |= changes_numerics;
  }
  void AddDecision(std::string decision) {
    if (decisions.size() < kMaxDecisions) {
      decisions.push_back(std::move(decision));
    } else {
      ++dropped_decisions;
    }
  }
  void Clear() { *this = PassRunLog(); }
  bool empty() const { return rewrites.empty() && decisions.empty(); }
};

class HloPassInterface {
 public:
  virtual ~HloPassInterface() = default;

  // Short name, used in dumps and by `systolic compile --passes` ("dce").
  virtual absl::string_view name() const = 0;
  // Runs the pass; true when the module changed.
  virtual absl::StatusOr<bool> Run(HloModule* module) = 0;
  // Pipelines record a snapshot after each of their passes; a pass that is
  // itself a pipeline records its own passes instead of itself.
  virtual bool IsPassPipeline() const { return false; }

  // What the last Run did. Cleared by the pipeline before each run.
  PassRunLog& run_log() { return run_log_; }
  const PassRunLog& run_log() const { return run_log_; }

 private:
  PassRunLog run_log_;
};

}  // namespace systolic
