#include "core/compiler/compilation_history.h"

namespace systolic {

void CompilationHistory::RecordInput(const HloModule& module) {
  snapshots_.clear();
  PassSnapshot s;
  s.index = 0;
  s.pass_name = "input";
  s.state = CaptureModuleState(module);
  snapshots_.push_back(std::move(s));
}

void CompilationHistory::RecordPass(const HloModule& module, absl::string_view pass_name,
                                    absl::string_view pipeline, bool changed,
                                    int64_t duration_ns, PassRunLog log) {
  PassSnapshot s;
  s.index = int64_t(snapshots_.size());
  s.pass_name = std::string(pass_name);
  s.pipeline = std::string(pipeline);
  s.changed = changed;
  s.duration_ns = duration_ns;
  s.log = std::move(log);
  // A pass that reports no change left the module as it was: share the state.
  s.state = (!changed && !snapshots_.empty()) ? snapshots_.back().state
                                              : CaptureModuleState(module);
  snapshots_.push_back(std::move(s));
}

const PassSnapshot* CompilationHistory::FindLast(absl::string_view pass_name) const {
  for (auto it = snapshots_.rbegin(); it != snapshots_.rend(); ++it) {
    if (it->pass_name == pass_name) return &*it;
  }
  return nullptr;
}

ProvenanceMapper CompilationHistory::Mapper(int64_t from, int64_t to) const {
  return ProvenanceMapper(snapshots_.at(from).state, snapshots_.at(to).state);
}

int64_t CompilationHistory::total_duration_ns() const {
  int64_t total = 0;
  for (const PassSnapshot& s : snapshots_) total += s.duration_ns;
  return total;
}

bool CompilationHistory::changed_numerics() const {
  for (const PassSnapshot& s : snapshots_) {
    if (s.log.changed_numerics) return true;
  }
  return false;
}

}  // namespace systolic
