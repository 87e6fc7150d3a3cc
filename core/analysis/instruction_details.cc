#include "core/analysis/instruction_details.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/analysis/execution_unit.h"
#include "core/hlo/hlo_computation.h"

namespace systolic::analysis {
namespace {

constexpr size_t kMaxListed = 8;

std::string Cut(std::string text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  return absl::StrCat(text.substr(0, max_chars), "…");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> DescribeInstruction(
    const HloInstruction& instruction, const OpStats* simulated) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.push_back({"Instruction", instruction.name()});
  if (instruction.parent()) {
    std::string computation = instruction.parent()->name();
    if (instruction.parent()->IsFusionComputation()) {
      absl::StrAppend(&computation, " (fused in ", instruction.parent()->FusionInstruction()->name(),
                      ")");
    }
    rows.push_back({"Computation", computation});
  }
  std::string opcode(HloOpcodeString(instruction.opcode()));
  if (instruction.opcode() == HloOpcode::kFusion) {
    absl::StrAppend(&opcode, " (", FusionKindToString(instruction.fusion_kind()), ")");
  } else if (instruction.opcode() == HloOpcode::kCustomCall) {
    absl::StrAppend(&opcode, " (", instruction.custom_call_target(), ")");
  }
  rows.push_back({"Opcode", opcode});
  const std::string by_opcode(ExecutionUnitName(ExecutionUnitOf(instruction)));
  if (simulated == nullptr) {
    rows.push_back({"Unit", by_opcode});
  } else {
    const std::string ran = OpCategoryName(simulated->category);
    rows.push_back({"Unit", absl::EqualsIgnoreCase(ran, by_opcode)
                                ? absl::StrCat(ran, " (as simulated)")
                                : absl::StrCat(ran, " (as simulated; ", by_opcode, " by its opcode)")});
  }
  rows.push_back({"Shape", instruction.shape().ToString(/*print_layout=*/true)});

  std::vector<std::string> operands;
  for (size_t i = 0; i < instruction.operands().size() && i < kMaxListed; ++i) {
    const HloInstruction* operand = instruction.operand(int64_t(i));
    operands.push_back(absl::StrCat(operand->name(), ": ", operand->shape().ToString(false)));
  }
  if (instruction.operand_count() > int64_t(kMaxListed)) {
    operands.push_back(absl::StrCat("… ", instruction.operand_count() - kMaxListed, " more"));
  }
  if (!operands.empty()) rows.push_back({"Operands", absl::StrJoin(operands, "\n")});

  std::vector<std::string> users;
  for (size_t i = 0; i < instruction.users().size() && i < kMaxListed; ++i) {
    users.push_back(instruction.users()[i]->name());
  }
  if (instruction.user_count() > int64_t(kMaxListed)) {
    users.push_back(absl::StrCat("… ", instruction.user_count() - kMaxListed, " more"));
  }
  if (!users.empty()) rows.push_back({"Users", absl::StrJoin(users, ", ")});

  std::vector<std::string> called;
  for (const HloComputation* c : instruction.called_computations()) called.push_back(c->name());
  if (!called.empty()) rows.push_back({"Calls", absl::StrJoin(called, ", ")});

  const OpMetadata& metadata = instruction.metadata();
  if (!metadata.op_name.empty()) rows.push_back({"op_name", metadata.op_name});
  if (!metadata.op_type.empty()) rows.push_back({"op_type", metadata.op_type});
  if (!metadata.source_file.empty()) {
    rows.push_back({"Source", metadata.source_line > 0
                                  ? absl::StrCat(metadata.source_file, ":", metadata.source_line)
                                  : metadata.source_file});
  }
  if (instruction.has_sharding()) rows.push_back({"Sharding", instruction.sharding().ToString()});
  if (!instruction.backend_config().empty()) {
    rows.push_back({"Backend config", Cut(instruction.backend_config(), 200)});
  }
  rows.push_back({"HLO", Cut(instruction.ToString(), 600)});
  return rows;
}

}  // namespace systolic::analysis
