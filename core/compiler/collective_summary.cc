#include "core/compiler/collective_summary.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "core/compiler/shape_size.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {
namespace {

// The array the collective hands over: its result, or for a -start its
// last tuple element (operands are kept beside the result).
int64_t BytesOf(const HloInstruction& instr) {
  int64_t in = 0;
  for (const HloInstruction* op : instr.operands()) in += UnpaddedByteSizeOf(op->shape());
  const Shape& shape = instr.shape();
  int64_t out = UnpaddedByteSizeOf(shape);
  if (absl::EndsWith(HloOpcodeString(instr.opcode()), "-start") && shape.IsTuple() &&
      shape.tuple_shapes_size() > 0) {
    out = UnpaddedByteSizeOf(shape.tuple_shapes(shape.tuple_shapes_size() - 1));
  }
  return std::max(in, out);
}

}  // namespace

std::vector<CollectiveSummary> SummariseCollectives(const HloModule& module) {
  std::vector<CollectiveSummary> out;
  for (const HloComputation* c : module.MakeComputationPostOrder()) {
    const std::vector<HloInstruction*>* scheduled = module.schedule(c);
    const std::vector<HloInstruction*> order =
        scheduled ? *scheduled : c->MakeInstructionPostOrder();
    for (const HloInstruction* listed : order) {
      const HloInstruction* instr = listed;
      // An async-start wrapping a collective stands for it.
      if (instr->opcode() == HloOpcode::kAsyncStart && !instr->called_computations().empty()) {
        instr = instr->async_wrapped_computation()->root_instruction();
      }
      if (!HloOpcodeIsCollective(instr->opcode())) continue;
      std::string opcode(HloOpcodeString(instr->opcode()));
      if (absl::EndsWith(opcode, "-done")) continue;  // counted at its start
      if (absl::EndsWith(opcode, "-start")) opcode.resize(opcode.size() - 6);
      const int64_t groups = instr->source_target_pairs().empty()
                                 ? int64_t(instr->replica_groups().size())
                                 : int64_t(instr->source_target_pairs().size());
      out.push_back({listed->name(), opcode, BytesOf(*instr), groups, listed->metadata().op_name});
    }
  }
  return out;
}

}  // namespace systolic
