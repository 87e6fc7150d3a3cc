#include "core/compiler/tuple_simplifier.h"

#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// The tuple `tuple` rebuilds, element by element, or nullptr.
HloInstruction* RebuiltTuple(HloInstruction& tuple) {
  if (tuple.operand_count() == 0) return nullptr;
  HloInstruction* source = nullptr;
  for (int64_t i = 0; i < tuple.operand_count(); ++i) {
    HloInstruction* element = tuple.mutable_operand(i);
    if (element->opcode() != HloOpcode::kGetTupleElement || element->tuple_index() != i) {
      return nullptr;
    }
    if (source != nullptr && element->operand(0) != source) return nullptr;
    source = element->operand(0)->parent() == tuple.parent() ? element->mutable_operand(0) : nullptr;
    if (source == nullptr) return nullptr;
  }
  if (source->shape().tuple_shapes_size() != tuple.operand_count() ||
      !(source->shape() == tuple.shape())) {
    return nullptr;
  }
  return source;
}

}  // namespace

absl::StatusOr<bool> TupleSimplifier::Run(HloModule* module) {
  bool changed = false;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (instr->opcode() == HloOpcode::kGetTupleElement &&
          instr->operand(0)->opcode() == HloOpcode::kTuple) {
        HloInstruction* element = instr->mutable_operand(0)->mutable_operand(instr->tuple_index());
        SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(instr, element));
        run_log().CountRewrite("get-tuple-element(tuple(..., x, ...)) => x");
        changed = true;
      } else if (instr->opcode() == HloOpcode::kTuple) {
        if (HloInstruction* source = RebuiltTuple(*instr)) {
          SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(instr, source));
          run_log().CountRewrite("tuple(gte(t, 0), ..., gte(t, n-1)) => t");
          changed = true;
        }
      }
    }
  }
  return changed;
}

}  // namespace systolic
