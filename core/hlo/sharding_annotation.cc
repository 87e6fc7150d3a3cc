#include "core/hlo/sharding_annotation.h"

namespace systolic {

bool IsShardingAnnotation(const HloInstruction& instr) {
  return instr.opcode() == HloOpcode::kCustomCall && instr.custom_call_target() == "Sharding";
}

HloSharding TupleElementSharding(const HloSharding& sharding, int64_t index) {
  if (!sharding.IsTuple()) return sharding;
  if (index < int64_t(sharding.tuple_elements().size())) return sharding.tuple_elements()[index];
  return HloSharding::Replicate();
}

}  // namespace systolic
