#include "core/hlo/hlo_computation.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

std::string ProgramShape::ToString(bool print_layout) const {
  std::vector<std::string> params;
  for (const Shape& p : parameters) params.push_back(p.ToString(print_layout));
  return absl::StrCat("(", absl::StrJoin(params, ", "), ") -> ", result.ToString(print_layout));
}

HloComputation::HloComputation(std::string name) : name_(std::move(name)) {}

// Instructions only free their own storage, so destruction order is free.
HloComputation::~HloComputation() = default;

HloInstruction* HloComputation::AddInstruction(std::unique_ptr<HloInstruction> instruction) {
  HloInstruction* raw = instruction.get();
  raw->parent_ = this;
  if (parent_) {
    if (raw->unique_id_ < 0) {
      raw->unique_id_ = parent_->NewUniqueId();
    } else {
      parent_->ReserveUniqueId(raw->unique_id_);
    }
    if (raw->name_.empty()) {
      raw->name_ = parent_->UniqueName(HloOpcodeString(raw->opcode_));
    } else {
      parent_->RegisterName(raw->name_);
    }
  }
  raw->index_in_parent_ = int64_t(instructions_.size());
  instructions_.push_back(std::move(instruction));
  ++live_count_;
  if (root_ == nullptr) root_ = raw;
  return raw;
}

HloInstruction* HloComputation::AddParameter(std::unique_ptr<HloInstruction> parameter) {
  HloInstruction* raw = AddInstruction(std::move(parameter));
  if (raw->parameter_number() >= int64_t(parameters_.size())) {
    parameters_.resize(raw->parameter_number() + 1, nullptr);
  }
  parameters_[raw->parameter_number()] = raw;
  return raw;
}

absl::Status HloComputation::RemoveInstruction(HloInstruction* instruction) {
  if (instruction->parent_ != this) {
    return absl::InvalidArgumentError(
        absl::StrCat("instruction ", instruction->name(), " is not in computation ", name_));
  }
  if (!instruction->users().empty() || instruction == root_) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove ", instruction->name(), ": it is still used"));
  }
  if (instruction->opcode() == HloOpcode::kParameter) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove parameter ", instruction->name()));
  }
  instruction->DetachFromOperandsAndUsers();
  instructions_[size_t(instruction->index_in_parent_)].reset();
  --live_count_;
  // Compacting once half the slots are empty keeps removal amortised O(1).
  if (int64_t(instructions_.size()) > 2 * live_count_ + 64) Compact();
  return absl::OkStatus();
}

void HloComputation::Compact() {
  size_t kept = 0;
  for (auto& slot : instructions_) {
    if (slot == nullptr) continue;
    slot->index_in_parent_ = int64_t(kept);
    instructions_[kept++] = std::move(slot);
  }
  instructions_.resize(kept);
}

absl::Status HloComputation::RemoveInstructionAndUnusedOperands(HloInstruction* instruction) {
  std::vector<HloInstruction*> worklist = {instruction};
  absl::flat_hash_set<HloInstruction*> removed;
  while (!worklist.empty()) {
    HloInstruction* current = worklist.back();
    worklist.pop_back();
    if (removed.contains(current) || !current->users().empty() || current == root_ ||
        current->opcode() == HloOpcode::kParameter ||
        (current != instruction && current->HasSideEffect())) {
      continue;
    }
    std::vector<HloInstruction*> operands = current->operands();
    absl::Status status = RemoveInstruction(current);
    if (!status.ok()) return status;
    removed.insert(current);
    for (HloInstruction* op : operands) worklist.push_back(op);
  }
  return absl::OkStatus();
}

absl::Status HloComputation::ReplaceInstruction(HloInstruction* old_instruction,
                                                HloInstruction* replacement) {
  if (old_instruction == replacement) return absl::OkStatus();
  // An instruction without provenance is its own origin: keep it one when it
  // takes over from another.
  if (replacement->provenance().empty()) {
    replacement->set_provenance({ProvenanceEntry{replacement->unique_id(), replacement->name()}});
  }
  replacement->MergeProvenanceFrom(*old_instruction);
  if (!replacement->has_sharding() && old_instruction->has_sharding() &&
      replacement->shape().IsTuple() == old_instruction->shape().IsTuple()) {
    replacement->set_sharding(old_instruction->sharding());
  }
  if (replacement->metadata().empty()) replacement->set_metadata(old_instruction->metadata());
  old_instruction->ReplaceAllUsesWith(replacement);
  for (HloInstruction* pred : old_instruction->control_predecessors()) {
    if (pred != replacement) pred->AddControlDependencyTo(replacement);
  }
  for (HloInstruction* succ : old_instruction->control_successors()) {
    if (succ != replacement) replacement->AddControlDependencyTo(succ);
  }
  old_instruction->RemoveAllControlDependencies();
  return RemoveInstructionAndUnusedOperands(old_instruction);
}

absl::Status HloComputation::ReplaceWithNewInstruction(
    HloInstruction* old_instruction, std::unique_ptr<HloInstruction> replacement) {
  // A new instruction is made from what it replaces.
  if (replacement->provenance().empty()) replacement->MergeProvenanceFrom(*old_instruction);
  HloInstruction* added = AddInstruction(std::move(replacement));
  return ReplaceInstruction(old_instruction, added);
}

std::vector<HloInstruction*> HloComputation::instructions() const {
  std::vector<HloInstruction*> out;
  out.reserve(size_t(live_count_));
  for (const auto& instr : instructions_) {
    if (instr) out.push_back(instr.get());
  }
  return out;
}

namespace {

// The instructions a traversal has reached, a byte per slot of the
// computation's instruction vector (hashing pointers was what a large
// module's passes spent their time on). An operand from another computation
// (a module being repaired) falls back to a hash set.
class VisitedSet {
 public:
  explicit VisitedSet(const HloComputation& computation)
      : computation_(&computation), seen_(size_t(computation.instruction_index_bound()), 0) {}

  // True when `instr` was not visited before.
  bool Insert(const HloInstruction* instr) {
    if (instr->parent() == computation_) {
      uint8_t& seen = seen_[size_t(instr->index_in_computation())];
      if (seen) return false;
      seen = 1;
      return true;
    }
    return others_.insert(instr).second;
  }

 private:
  const HloComputation* computation_;
  std::vector<uint8_t> seen_;
  absl::flat_hash_set<const HloInstruction*> others_;
};

}  // namespace

std::vector<HloInstruction*> HloComputation::MakeInstructionPostOrder() const {
  VisitedSet visited(*this);
  std::vector<HloInstruction*> order;
  order.reserve(size_t(live_count_));
  // Iterative DFS: (instruction, next operand position to visit).
  std::vector<std::pair<HloInstruction*, size_t>> stack;
  auto visit = [&](HloInstruction* start) {
    if (!visited.Insert(start)) return;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      auto& [instr, next] = stack.back();
      size_t n_ops = instr->operands().size();
      size_t n_total = n_ops + instr->control_predecessors().size();
      if (next < n_total) {
        HloInstruction* dep =
            next < n_ops ? instr->operands()[next] : instr->control_predecessors()[next - n_ops];
        ++next;
        if (visited.Insert(dep)) stack.push_back({dep, 0});
        continue;
      }
      order.push_back(instr);
      stack.pop_back();
    }
  };
  // Parameters first so they print in number order, then every instruction
  // reachable from the root, then any dead instructions.
  for (HloInstruction* p : parameters_) {
    if (p) visit(p);
  }
  if (root_) visit(root_);
  for (const auto& instr : instructions_) {
    if (instr) visit(instr.get());
  }
  return order;
}

std::vector<HloComputation*> HloComputation::MakeEmbeddedComputationsList() const {
  std::vector<HloComputation*> order;
  absl::flat_hash_set<const HloComputation*> visited;
  std::function<void(const HloComputation*)> visit = [&](const HloComputation* c) {
    for (const auto& instr : c->instructions_) {
      if (!instr) continue;
      for (HloComputation* callee : instr->called_computations()) {
        if (visited.insert(callee).second) {
          visit(callee);
          order.push_back(callee);
        }
      }
    }
  };
  visit(this);
  return order;
}

bool HloComputation::IsEntryComputation() const {
  return parent_ && parent_->entry_computation() == this;
}

ProgramShape HloComputation::ComputeProgramShape() const {
  ProgramShape ps;
  for (HloInstruction* p : parameters_) {
    if (!p) continue;
    ps.parameters.push_back(p->shape());
    ps.parameter_names.push_back(p->name());
  }
  if (root_) ps.result = root_->shape();
  return ps;
}

std::vector<HloInstruction*> HloComputation::PrintOrder() const {
  if (parent_ && parent_->is_scheduled()) {
    if (const auto* sequence = parent_->schedule(this)) {
      if (int64_t(sequence->size()) == instruction_count()) return *sequence;
    }
  }
  return MakeInstructionPostOrder();
}

}  // namespace systolic
