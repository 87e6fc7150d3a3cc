#include "core/compiler/hlo_dce.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

bool IsRemovable(const HloInstruction& instr) {
  return instr.IsDead() && instr.opcode() != HloOpcode::kParameter && !instr.HasSideEffect() &&
         instr.control_predecessors().empty() && instr.control_successors().empty();
}

}  // namespace

absl::StatusOr<bool> HloDCE::RunOnComputation(HloComputation* computation, int64_t* removed) {
  const int64_t before = computation->instruction_count();
  // Users before operands, so one sweep removes whole dead chains.
  std::vector<HloInstruction*> order = computation->MakeInstructionPostOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    HloInstruction* instr = *it;
    if (!IsRemovable(*instr)) continue;
    SYSTOLIC_RETURN_IF_ERROR(computation->RemoveInstruction(instr));
  }
  *removed += before - computation->instruction_count();
  return computation->instruction_count() != before;
}

absl::StatusOr<bool> HloDCE::Run(HloModule* module) {
  bool changed = false;
  int64_t removed = 0;
  for (HloComputation* c : module->MakeComputationPostOrder()) {
    SYSTOLIC_ASSIGN_OR_RETURN(bool c_changed, RunOnComputation(c, &removed));
    changed |= c_changed;
  }
  if (removed > 0) run_log().rewrites["removed a dead instruction"] += removed;
  int64_t computations = module->RemoveUnusedComputations();
  if (computations > 0) {
    run_log().rewrites["removed a computation nothing calls"] += computations;
    changed = true;
  }
  return changed;
}

}  // namespace systolic
