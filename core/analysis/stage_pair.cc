#include "core/analysis/stage_pair.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace systolic::analysis {
namespace {

bool IsFusionPass(const trace::ModuleSnapshot& snapshot) {
  return absl::StrContains(absl::AsciiStrToLower(snapshot.pass_name), "fusion");
}

}  // namespace

StagePair DefaultStagePair(const trace::ProgramRecord& program) {
  const int64_t n = int64_t(program.snapshots.size());
  if (n == 0) return {};
  if (n == 1) return {0, -1};
  // The first fusion pass that changed the module, and the fusion passes
  // that ran right after it (priority fusion, then multi-output fusion...).
  for (int64_t i = 1; i < n; ++i) {
    if (!IsFusionPass(program.snapshots[i]) || !program.snapshots[i].changed) continue;
    int64_t last = i;
    while (last + 1 < n && IsFusionPass(program.snapshots[last + 1])) ++last;
    return {i - 1, last};
  }
  return {0, n - 1};
}

}  // namespace systolic::analysis
