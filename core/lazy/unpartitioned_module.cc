#include "core/lazy/unpartitioned_module.h"

#include "core/hlo/sharding_annotation.h"
#include "core/hlo/status_macros.h"

namespace systolic::lazy {

absl::StatusOr<std::unique_ptr<HloModule>> UnpartitionedModule(const HloModule& module) {
  std::unique_ptr<HloModule> copy = module.Clone();
  copy->set_num_partitions(1);
  HloComputation* entry = copy->entry_computation();
  for (HloInstruction* instr : entry->MakeInstructionPostOrder()) {
    if (IsShardingAnnotation(*instr)) {
      SYSTOLIC_RETURN_IF_ERROR(entry->ReplaceInstruction(instr, instr->mutable_operand(0)));
    }
  }
  return copy;
}

}  // namespace systolic::lazy
