#include "core/analysis/snapshot_link.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

namespace systolic::analysis {

std::vector<const HloInstruction*> LinkedInstructions(const StageModule& from,
                                                      const HloInstruction* instruction,
                                                      const StageModule& to) {
  return LinkedInstructions(from, std::vector<const HloInstruction*>{instruction}, to);
}

std::vector<const HloInstruction*> LinkedInstructions(
    const StageModule& from, const std::vector<const HloInstruction*>& instructions,
    const StageModule& to) {
  std::vector<const HloInstruction*> linked;
  absl::flat_hash_set<const HloInstruction*> seen;
  for (const HloInstruction* instruction : instructions) {
    for (int64_t origin : from.OriginsOf(instruction)) {
      for (const HloInstruction* made : to.MadeFrom(origin)) {
        if (seen.insert(made).second) linked.push_back(made);
      }
    }
  }
  std::sort(linked.begin(), linked.end(), [&](const HloInstruction* a, const HloInstruction* b) {
    return to.ProgramOrder(a) < to.ProgramOrder(b);
  });
  return linked;
}

}  // namespace systolic::analysis
