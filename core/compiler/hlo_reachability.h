// "Is there a path from a to b?" in one computation, answered by a search
// pruned with a topological order, and kept valid while a fusion pass merges
// instructions (the order is repaired locally, as in Pearce and Kelly's
// dynamic topological sort), so checks stay cheap on huge graphs.
#pragma once

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {

class HloReachability {
 public:
  explicit HloReachability(const HloComputation* computation);

  // True if `to` can be reached from `from` through users (data and control
  // edges). Searches that grow past a budget answer true: callers only use
  // "false" to allow a rewrite, so that is the safe answer.
  bool IsReachable(const HloInstruction* from, const HloInstruction* to,
                   int64_t budget = kSearchBudget) const;
  // How far apart two instructions are in the order (about the number of
  // instructions between them); a search between them visits at most that.
  double Distance(const HloInstruction* a, const HloInstruction* b) const {
    return std::abs(Label(a) - Label(b));
  }

  // Call before replacing `members` by one fusion: remembers how to repair
  // the order. Then call Commit once the fusion exists (and the members are
  // gone); `outputs_read_by` are the get-tuple-elements added for a
  // multi-output fusion.
  struct PendingFusion {
    double label = 0;
    std::vector<const HloInstruction*> members;
    std::vector<const HloInstruction*> moved;  // must now come after the fusion
  };
  PendingFusion Prepare(const std::vector<HloInstruction*>& members) const;
  void Commit(const PendingFusion& pending, const HloInstruction* fusion,
              const std::vector<const HloInstruction*>& outputs_read_by);

  static constexpr int64_t kSearchBudget = 1 << 18;

 private:
  double Label(const HloInstruction* instr) const;
  void Relabel();

  const HloComputation* computation_;
  absl::flat_hash_map<const HloInstruction*, double> label_;
  std::set<double> labels_;
};

}  // namespace systolic
