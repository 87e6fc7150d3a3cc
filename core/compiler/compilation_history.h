// Every snapshot of one compilation, in the order the passes ran: the input
// module first, then the module after each pass (passes inside fixed-point
// loops once per iteration).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/compiler/pass_snapshot.h"
#include "core/compiler/provenance_mapper.h"

namespace systolic {

class CompilationHistory {
 public:
  // The module before any pass; clears earlier snapshots.
  void RecordInput(const HloModule& module);
  // The module after a pass. When the pass did not change the module, the
  // previous snapshot's state is shared instead of captured again.
  void RecordPass(const HloModule& module, absl::string_view pass_name,
                  absl::string_view pipeline, bool changed, int64_t duration_ns,
                  PassRunLog log);

  const std::vector<PassSnapshot>& snapshots() const { return snapshots_; }
  int64_t size() const { return int64_t(snapshots_.size()); }
  const PassSnapshot& snapshot(int64_t i) const { return snapshots_[i]; }
  // The last snapshot of the named pass, or nullptr.
  const PassSnapshot* FindLast(absl::string_view pass_name) const;
  // Links the instructions of snapshots `from` and `to` (indices).
  ProvenanceMapper Mapper(int64_t from, int64_t to) const;
  // Total wall time of the passes.
  int64_t total_duration_ns() const;
  // True if any pass said a rewrite may have changed floating-point results.
  bool changed_numerics() const;

 private:
  std::vector<PassSnapshot> snapshots_;
};

}  // namespace systolic
