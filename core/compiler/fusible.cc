#include "core/compiler/fusible.h"

#include "absl/container/flat_hash_set.h"
#include "core/hlo/hlo_module.h"

namespace systolic {
namespace {

// Worth not computing twice: transcendentals, and divide and remainder,
// which the vector unit also runs as a sequence of steps.
bool IsExpensiveElementwise(HloOpcode opcode) {
  return HloOpcodeIsTranscendental(opcode) || opcode == HloOpcode::kDivide ||
         opcode == HloOpcode::kRemainder;
}

template <typename Predicate>
bool AnyFused(const HloInstruction& instr, Predicate predicate) {
  if (instr.opcode() != HloOpcode::kFusion) return predicate(instr);
  for (const HloInstruction* fused : instr.fused_instructions_computation()->instructions()) {
    if (AnyFused(*fused, predicate)) return true;
  }
  return false;
}

}  // namespace

bool IsFusible(const HloInstruction& instr) {
  if (instr.HasSideEffect() || !instr.control_predecessors().empty() ||
      !instr.control_successors().empty()) {
    return false;
  }
  const Shape& shape = instr.shape();
  if (instr.opcode() == HloOpcode::kReduce) return true;  // variadic ones are tuples
  if (instr.opcode() == HloOpcode::kFusion) return instr.fusion_kind() != FusionKind::kCustom;
  if (!shape.IsArray() || !shape.is_static()) return false;
  if (instr.IsElementwise()) return true;
  switch (instr.opcode()) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kReshape:
    case HloOpcode::kTranspose:
    case HloOpcode::kSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kCopy:
    case HloOpcode::kIota:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
      return true;
    case HloOpcode::kConstant:
      return shape.num_elements() <= 1;
    default:
      return false;
  }
}

bool IsCheapToDuplicate(const HloInstruction& instr) {
  switch (instr.opcode()) {
    case HloOpcode::kConstant:
      return instr.shape().IsArray() && instr.shape().num_elements() <= 1;
    case HloOpcode::kIota:
      return true;
    case HloOpcode::kBroadcast:
      return instr.operand(0)->shape().IsArray() && instr.operand(0)->shape().rank() == 0 &&
             instr.shape().is_static();
    default:
      return false;
  }
}

bool HasReduction(const HloInstruction& instr) {
  return AnyFused(instr, [](const HloInstruction& i) { return i.opcode() == HloOpcode::kReduce; });
}

bool HasMatrixOp(const HloInstruction& instr) {
  return AnyFused(instr, [](const HloInstruction& i) {
    return i.opcode() == HloOpcode::kDot || i.opcode() == HloOpcode::kConvolution;
  });
}

bool IsExpensiveToDuplicate(const HloInstruction& instr) {
  return AnyFused(instr, [](const HloInstruction& i) {
    return i.opcode() == HloOpcode::kReduce || i.opcode() == HloOpcode::kDot ||
           i.opcode() == HloOpcode::kConvolution || IsExpensiveElementwise(i.opcode());
  });
}

int64_t KernelInstructionCount(const HloInstruction& instr) {
  if (instr.opcode() != HloOpcode::kFusion) return 1;
  return instr.fused_instructions_computation()->instruction_count();
}

std::vector<int64_t> IterationSpace(const HloInstruction& instr) {
  const HloInstruction* root = &instr;
  if (instr.opcode() == HloOpcode::kFusion) root = instr.fused_expression_root();
  if (root->opcode() == HloOpcode::kTuple && root->operand_count() > 0) root = root->operand(0);
  if (root->opcode() == HloOpcode::kReduce) return root->operand(0)->shape().dimensions();
  if (root->shape().IsTuple()) return {};
  return root->shape().dimensions();
}

std::vector<HloComputation*> FusibleComputations(const HloModule& module) {
  absl::flat_hash_set<const HloComputation*> wanted;
  std::vector<const HloComputation*> stack;
  if (module.entry_computation() != nullptr) stack.push_back(module.entry_computation());
  while (!stack.empty()) {
    const HloComputation* c = stack.back();
    stack.pop_back();
    if (!wanted.insert(c).second) continue;
    for (const HloInstruction* instr : c->instructions()) {
      switch (instr->opcode()) {
        case HloOpcode::kWhile:
        case HloOpcode::kConditional:
        case HloOpcode::kCall:
          for (const HloComputation* callee : instr->called_computations()) stack.push_back(callee);
          break;
        default:
          break;
      }
    }
  }
  std::vector<HloComputation*> out;
  for (HloComputation* c : module.MakeComputationPostOrder()) {
    if (wanted.contains(c) && !c->IsFusionComputation()) out.push_back(c);
  }
  return out;
}

}  // namespace systolic
