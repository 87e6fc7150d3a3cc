#include "core/trace/program_record.h"

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic::trace {

std::vector<InstructionSharding> CollectShardings(const HloModule& module) {
  std::vector<InstructionSharding> shardings;
  for (const HloComputation* computation : module.MakeComputationPostOrder()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      if (!instruction->has_sharding()) continue;
      shardings.push_back(
          {instruction->unique_id(), instruction->name(), instruction->sharding().ToString()});
    }
  }
  return shardings;
}

}  // namespace systolic::trace
