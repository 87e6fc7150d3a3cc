#include "core/compiler/hlo_constant_folding.h"

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "core/compiler/shape_size.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// May be evaluated at compile time (given known operands).
bool IsFoldable(const HloInstruction& instr) {
  if (instr.HasSideEffect() || HloOpcodeIsCollective(instr.opcode()) ||
      !instr.control_predecessors().empty() || !instr.control_successors().empty() ||
      !instr.shape().IsArray() || !instr.shape().is_static()) {
    return false;
  }
  switch (instr.opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kRng:
    case HloOpcode::kRngBitGenerator:
    case HloOpcode::kRngGetAndUpdateState:
    case HloOpcode::kCustomCall:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kFusion:
    case HloOpcode::kReplicaId:
    case HloOpcode::kPartitionId:
    case HloOpcode::kInfeed:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
      return false;
    default:
      return true;
  }
}

// Worth replacing by a constant: not a mere expansion of a smaller value.
bool IsWorthMaterializing(const HloInstruction& instr) {
  return instr.opcode() != HloOpcode::kBroadcast && instr.opcode() != HloOpcode::kIota;
}

}  // namespace

absl::StatusOr<bool> HloConstantFolding::Run(HloModule* module) {
  HloEvaluator evaluator;
  int64_t folded = 0;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    // Values known at compile time; a constant's is its literal.
    // (Removed instructions are never looked up again: their users are gone.)
    absl::flat_hash_map<const HloInstruction*, const Literal*> known;
    std::vector<std::unique_ptr<Literal>> computed;
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (instr->opcode() == HloOpcode::kConstant && instr->has_literal() &&
          instr->shape().IsArray()) {
        known[instr] = &instr->literal();
        continue;
      }
      if (!IsFoldable(*instr) || ByteSizeOf(instr->shape()) > options_.max_result_bytes) continue;
      std::vector<const Literal*> operands;
      bool all_known = true;
      for (const HloInstruction* op : instr->operands()) {
        auto it = known.find(op);
        if (it == known.end()) {
          all_known = false;
          break;
        }
        operands.push_back(it->second);
      }
      if (!all_known) continue;
      absl::StatusOr<Literal> value = evaluator.EvaluateInstruction(*instr, operands);
      if (!value.ok()) continue;  // left for the program to compute
      if (!IsWorthMaterializing(*instr)) {
        computed.push_back(std::make_unique<Literal>(std::move(value).value()));
        known[instr] = computed.back().get();
        continue;
      }
      auto constant = HloInstruction::CreateConstant(std::move(value).value());
      *constant->mutable_shape() = instr->shape();  // keep the layout
      // The constant is made of the whole folded expression.
      for (const HloInstruction* op : instr->operands()) constant->MergeProvenanceFrom(*op);
      HloInstruction* added = computation->AddInstruction(std::move(constant));
      known[added] = &added->literal();
      SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(instr, added));
      ++folded;
    }
  }
  if (folded > 0) run_log().rewrites["folded an instruction of known operands to a constant"] += folded;
  return folded > 0;
}

}  // namespace systolic
