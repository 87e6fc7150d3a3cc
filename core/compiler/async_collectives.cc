#include "core/compiler/async_collectives.h"

namespace systolic {

std::optional<HloOpcode> AsyncStartOpcodeOf(HloOpcode synchronous) {
  switch (synchronous) {
    case HloOpcode::kAllReduce: return HloOpcode::kAllReduceStart;
    case HloOpcode::kAllGather: return HloOpcode::kAllGatherStart;
    case HloOpcode::kCollectivePermute: return HloOpcode::kCollectivePermuteStart;
    default: return std::nullopt;
  }
}

std::optional<HloOpcode> AsyncDoneOpcodeOf(HloOpcode start) {
  switch (start) {
    case HloOpcode::kAllReduceStart: return HloOpcode::kAllReduceDone;
    case HloOpcode::kAllGatherStart: return HloOpcode::kAllGatherDone;
    case HloOpcode::kCollectivePermuteStart: return HloOpcode::kCollectivePermuteDone;
    default: return std::nullopt;
  }
}

bool IsAsyncCollectiveStart(const HloInstruction& instruction) {
  return AsyncDoneOpcodeOf(instruction.opcode()).has_value();
}

bool IsAsyncCollectiveDone(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
      return true;
    default:
      return false;
  }
}

std::optional<HloOpcode> CollectiveKindOf(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllReduceDone:
      return HloOpcode::kAllReduce;
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kAllGatherDone:
      return HloOpcode::kAllGather;
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kCollectivePermuteDone:
      return HloOpcode::kCollectivePermute;
    case HloOpcode::kReduceScatter:
    case HloOpcode::kAllToAll:
      return instruction.opcode();
    default:
      return std::nullopt;
  }
}

}  // namespace systolic
