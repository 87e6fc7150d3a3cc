#include "core/compiler/call_inliner.h"

#include "absl/container/flat_hash_map.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {

absl::Status CallInliner::Inline(HloInstruction* call) {
  HloComputation* caller = call->parent();
  HloComputation* callee = call->to_apply();
  HloModule* module = caller->parent();
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> map;
  for (int64_t i = 0; i < callee->num_parameters(); ++i) {
    map[callee->parameter_instruction(i)] = call->mutable_operand(i);
  }
  for (HloInstruction* instr : callee->MakeInstructionPostOrder()) {
    if (instr->opcode() == HloOpcode::kParameter) continue;
    std::vector<HloInstruction*> operands;
    operands.reserve(instr->operand_count());
    for (HloInstruction* op : instr->operands()) operands.push_back(map.at(op));
    auto clone = instr->CloneWithNewOperands(instr->shape(), operands);
    // The callee's names may be taken in the caller.
    clone->SetName(module->UniqueName(instr->name()));
    map[instr] = caller->AddInstruction(std::move(clone));
  }
  for (HloInstruction* instr : callee->instructions()) {
    for (HloInstruction* succ : instr->control_successors()) {
      if (map.contains(instr) && map.contains(succ)) {
        map.at(instr)->AddControlDependencyTo(map.at(succ));
      }
    }
  }
  return caller->ReplaceInstruction(call, map.at(callee->root_instruction()));
}

absl::StatusOr<bool> CallInliner::Run(HloModule* module) {
  int64_t inlined = 0;
  // Callees first, so a call inside a callee is already inlined when the
  // callee is copied.
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (instr->opcode() != HloOpcode::kCall || instr->to_apply() == nullptr) continue;
      SYSTOLIC_RETURN_IF_ERROR(Inline(instr));
      ++inlined;
    }
  }
  if (inlined == 0) return false;
  run_log().rewrites["inlined a call"] += inlined;
  module->RemoveUnusedComputations();
  return true;
}

}  // namespace systolic
