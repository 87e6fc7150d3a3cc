#include "core/analysis/execution_unit.h"

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic::analysis {

absl::string_view ExecutionUnitName(ExecutionUnit unit) {
  switch (unit) {
    case ExecutionUnit::kMxu: return "MXU";
    case ExecutionUnit::kVector: return "vector";
    case ExecutionUnit::kDataMovement: return "data movement";
    case ExecutionUnit::kCollective: return "collective";
    case ExecutionUnit::kControlFlow: return "control flow";
    case ExecutionUnit::kOther: return "other";
  }
  return "other";
}

int ExecutionUnitWeight(ExecutionUnit unit) {
  switch (unit) {
    case ExecutionUnit::kMxu: return 0;
    case ExecutionUnit::kCollective: return 1;
    case ExecutionUnit::kControlFlow: return 2;
    case ExecutionUnit::kVector: return 3;
    case ExecutionUnit::kDataMovement: return 4;
    case ExecutionUnit::kOther: return 5;
  }
  return 5;
}

ExecutionUnit ExecutionUnitOfOpcode(HloOpcode opcode) {
  switch (opcode) {
    // Matrix units: everything that contracts dimensions.
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
    case HloOpcode::kRaggedDot:
    case HloOpcode::kScaledDot:
      return ExecutionUnit::kMxu;

    // Transfers over the inter-chip links.
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllToAll:
    case HloOpcode::kRaggedAllToAll:
    case HloOpcode::kCollectiveBroadcast:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kCollectivePermuteDone:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kSend:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecv:
    case HloOpcode::kRecvDone:
      return ExecutionUnit::kCollective;

    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kAfterAll:
    case HloOpcode::kAddDependency:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kDomain:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      return ExecutionUnit::kControlFlow;

    // No arithmetic: data is read, moved, re-laid out or reinterpreted.
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kIota:
    case HloOpcode::kCopy:
    case HloOpcode::kCopyStart:
    case HloOpcode::kCopyDone:
    case HloOpcode::kBitcast:
    case HloOpcode::kReshape:
    case HloOpcode::kDynamicReshape:
    case HloOpcode::kTranspose:
    case HloOpcode::kBroadcast:
    case HloOpcode::kSlice:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kConcatenate:
    case HloOpcode::kPad:
    case HloOpcode::kReverse:
    case HloOpcode::kGather:
    case HloOpcode::kScatter:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
      return ExecutionUnit::kDataMovement;

    case HloOpcode::kCustomCall:
    case HloOpcode::kPartitionId:
    case HloOpcode::kReplicaId:
    case HloOpcode::kRngGetAndUpdateState:
      return ExecutionUnit::kOther;

    default:
      return ExecutionUnit::kVector;
  }
}

namespace {

ExecutionUnit Heavier(ExecutionUnit a, ExecutionUnit b) {
  return ExecutionUnitWeight(a) <= ExecutionUnitWeight(b) ? a : b;
}

// The unit of what a fusion or async wrapper holds; parameters, tuples and
// the like only move the data the real work needs, so they count last.
ExecutionUnit UnitOfBody(const HloComputation& computation, int depth) {
  ExecutionUnit unit = ExecutionUnit::kOther;
  bool any = false;
  for (const HloInstruction* instruction : computation.instructions()) {
    if (instruction->opcode() == HloOpcode::kParameter) continue;
    ExecutionUnit u = ExecutionUnitOfOpcode(instruction->opcode());
    if ((instruction->opcode() == HloOpcode::kFusion ||
         instruction->opcode() == HloOpcode::kAsyncStart) &&
        !instruction->called_computations().empty() && depth < 8) {
      u = UnitOfBody(*instruction->called_computations()[0], depth + 1);
    }
    unit = any ? Heavier(unit, u) : u;
    any = true;
  }
  return any ? unit : ExecutionUnit::kDataMovement;
}

}  // namespace

ExecutionUnit ExecutionUnitOf(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kFusion:
      if (instruction.called_computations().empty()) return ExecutionUnit::kVector;
      return UnitOfBody(*instruction.fused_instructions_computation(), 0);
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone: {
      // A wrapped collective is a collective; anything else is its body's.
      const HloInstruction* start = &instruction;
      while (start->opcode() != HloOpcode::kAsyncStart && start->operand_count() > 0) {
        start = start->operand(0);
      }
      if (start->opcode() == HloOpcode::kAsyncStart && !start->called_computations().empty()) {
        return UnitOfBody(*start->async_wrapped_computation(), 0);
      }
      return ExecutionUnit::kControlFlow;
    }
    default:
      return ExecutionUnitOfOpcode(instruction.opcode());
  }
}

ExecutionUnit DominantExecutionUnit(const HloComputation& computation) {
  return UnitOfBody(computation, 0);
}

}  // namespace systolic::analysis
