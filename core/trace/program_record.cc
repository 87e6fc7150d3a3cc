#include "core/trace/program_record.h"

#include "absl/strings/numbers.h"

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

std::optional<int64_t> ParseProgramId(absl::string_view text) {
  int64_t id;
  if (absl::SimpleAtoi(text, &id)) return id;
  uint64_t unsigned_id;
  if (absl::SimpleAtoi(text, &unsigned_id)) return int64_t(unsigned_id);
  return std::nullopt;
}

ModuleAndProgramId SplitModuleAndProgramId(absl::string_view name) {
  const size_t open = name.rfind('(');
  if (open == absl::string_view::npos || open == 0 || name.back() != ')') return {name, std::nullopt};
  const std::optional<int64_t> id = ParseProgramId(name.substr(open + 1, name.size() - open - 2));
  if (!id) return {name, std::nullopt};
  return {name.substr(0, open), id};
}

}  // namespace systolic::trace
