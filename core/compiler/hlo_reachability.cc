#include "core/compiler/hlo_reachability.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

namespace systolic {
namespace {

template <typename Visit>
void ForEachSuccessor(const HloInstruction* instr, Visit visit) {
  for (const HloInstruction* user : instr->users()) visit(user);
  for (const HloInstruction* succ : instr->control_successors()) visit(succ);
}

}  // namespace

HloReachability::HloReachability(const HloComputation* computation) : computation_(computation) {
  Relabel();
}

void HloReachability::Relabel() {
  label_.clear();
  labels_.clear();
  double next = 0;
  for (const HloInstruction* instr : computation_->MakeInstructionPostOrder()) {
    label_[instr] = next;
    labels_.insert(next);
    next += 1;
  }
}

double HloReachability::Label(const HloInstruction* instr) const {
  auto it = label_.find(instr);
  return it == label_.end() ? 0 : it->second;
}

bool HloReachability::IsReachable(const HloInstruction* from, const HloInstruction* to,
                                  int64_t budget) const {
  if (from == to) return true;
  const double limit = Label(to);
  if (Label(from) >= limit) return false;
  std::vector<const HloInstruction*> stack = {from};
  absl::flat_hash_set<const HloInstruction*> visited = {from};
  bool found = false;
  while (!stack.empty() && !found) {
    const HloInstruction* instr = stack.back();
    stack.pop_back();
    ForEachSuccessor(instr, [&](const HloInstruction* next) {
      if (found || next->parent() != computation_) return;
      if (next == to) {
        found = true;
        return;
      }
      // Everything reachable from `next` comes after it in the order.
      if (Label(next) >= limit || !visited.insert(next).second) return;
      stack.push_back(next);
    });
    if (int64_t(visited.size()) > budget) return true;
  }
  return found;
}

HloReachability::PendingFusion HloReachability::Prepare(
    const std::vector<HloInstruction*>& members) const {
  PendingFusion pending;
  absl::flat_hash_set<const HloInstruction*> member_set(members.begin(), members.end());
  for (const HloInstruction* m : members) {
    pending.members.push_back(m);
    pending.label = std::max(pending.label, Label(m));
  }
  // Whatever a member reaches before the last member must move after the
  // fusion, which takes the last member's place.
  std::vector<const HloInstruction*> stack(members.begin(), members.end());
  absl::flat_hash_set<const HloInstruction*> visited;
  while (!stack.empty()) {
    const HloInstruction* instr = stack.back();
    stack.pop_back();
    ForEachSuccessor(instr, [&](const HloInstruction* next) {
      if (member_set.contains(next) || Label(next) >= pending.label ||
          !visited.insert(next).second) {
        return;
      }
      pending.moved.push_back(next);
      stack.push_back(next);
    });
  }
  std::sort(pending.moved.begin(), pending.moved.end(),
            [&](const HloInstruction* a, const HloInstruction* b) { return Label(a) < Label(b); });
  return pending;
}

void HloReachability::Commit(const PendingFusion& pending, const HloInstruction* fusion,
                             const std::vector<const HloInstruction*>& outputs_read_by) {
  for (const HloInstruction* m : pending.members) {
    auto it = label_.find(m);
    if (it == label_.end()) continue;
    labels_.erase(it->second);
    label_.erase(it);
  }
  for (const HloInstruction* moved : pending.moved) labels_.erase(Label(moved));
  const double at = pending.label;
  auto upper = labels_.upper_bound(at);
  const int64_t slots = int64_t(outputs_read_by.size() + pending.moved.size());
  const double next = upper == labels_.end() ? at + double(slots) + 1 : *upper;
  const double step = (next - at) / double(slots + 1);
  if (step <= (std::abs(at) + 1) * 1e-12) {
    Relabel();  // the gap is used up: start over from the graph
    return;
  }
  label_[fusion] = at;
  labels_.insert(at);
  int64_t slot = 1;
  for (const HloInstruction* gte : outputs_read_by) {
    const double l = at + step * double(slot++);
    label_[gte] = l;
    labels_.insert(l);
  }
  for (const HloInstruction* moved : pending.moved) {
    const double l = at + step * double(slot++);
    label_[moved] = l;
    labels_.insert(l);
  }
}

}  // namespace systolic
