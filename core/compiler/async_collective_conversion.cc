#include "core/compiler/async_collective_conversion.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/compiler/async_collectives.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// The start's value as XLA's shape rules have it: all-reduce-start holds the
// result; all-gather-start (operands, result); collective-permute-start
// (input, result), the input being the result's shape unless in place.
Shape StartShapeOf(const HloInstruction& collective) {
  switch (collective.opcode()) {
    case HloOpcode::kAllGather: {
      std::vector<Shape> operands;
      for (const HloInstruction* op : collective.operands()) operands.push_back(op->shape());
      Shape inputs = operands.size() == 1 ? operands[0] : Shape::MakeTuple(std::move(operands));
      return Shape::MakeTuple({std::move(inputs), collective.shape()});
    }
    case HloOpcode::kCollectivePermute: {
      const bool in_place = !collective.slice_sizes().empty();
      return Shape::MakeTuple(
          {in_place ? collective.operand(0)->shape() : collective.shape(), collective.shape()});
    }
    default:
      return collective.shape();
  }
}

struct AsyncPair {
  HloInstruction* start;
  HloInstruction* done;
};

// Adds the pair for `collective` and moves its uses and control edges to it;
// the collective itself is left dead.
AsyncPair AddAsyncPair(HloComputation* computation, HloInstruction* collective,
                       HloOpcode start_opcode) {
  HloModule* module = computation->parent();
  auto start_owned =
      collective->CloneWithNewOpcode(start_opcode, StartShapeOf(*collective), collective->operands());
  start_owned->SetName(module->UniqueName(absl::StrCat(collective->name(), "-start")));
  HloInstruction* start = computation->AddInstruction(std::move(start_owned));
  // The done only waits: it carries the sharding and metadata, none of the
  // collective's own attributes.
  auto done_owned = HloInstruction::Create(*AsyncDoneOpcodeOf(start_opcode), collective->shape(),
                                           {start});
  done_owned->SetName(module->UniqueName(absl::StrCat(collective->name(), "-done")));
  if (collective->has_sharding()) done_owned->set_sharding(collective->sharding());
  done_owned->set_metadata(collective->metadata());
  done_owned->set_provenance(start->provenance());
  HloInstruction* done = computation->AddInstruction(std::move(done_owned));
  for (HloInstruction* predecessor : collective->control_predecessors()) {
    predecessor->AddControlDependencyTo(start);
  }
  for (HloInstruction* successor : collective->control_successors()) {
    done->AddControlDependencyTo(successor);
  }
  collective->RemoveAllControlDependencies();
  return {start, done};
}

}  // namespace

absl::StatusOr<bool> AsyncCollectiveConversion::Run(HloModule* module) {
  bool changed = false;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    const std::vector<HloInstruction*>* schedule = module->schedule(computation);
    std::vector<HloInstruction*> sequence;
    if (schedule != nullptr) sequence = *schedule;
    bool computation_changed = false;
    for (HloInstruction* collective : computation->MakeInstructionPostOrder()) {
      const std::optional<HloOpcode> start_opcode = AsyncStartOpcodeOf(collective->opcode());
      if (!start_opcode) continue;
      const AsyncPair pair = AddAsyncPair(computation, collective, *start_opcode);
      if (schedule != nullptr) {
        auto at = std::find(sequence.begin(), sequence.end(), collective);
        if (at != sequence.end()) {
          at = sequence.erase(at);
          sequence.insert(at, {pair.start, pair.done});
        }
      }
      const std::string name = collective->name();
      const std::string opcode(HloOpcodeString(collective->opcode()));
      SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(collective, pair.done));
      run_log().CountRewrite(absl::StrCat(opcode, " => ", opcode, "-start, ", opcode, "-done"));
      run_log().AddDecision(absl::StrCat("%", name, " split into %", pair.start->name(), " and %",
                                         pair.done->name()));
      computation_changed = true;
    }
    if (computation_changed && schedule != nullptr) {
      module->set_schedule(computation, std::move(sequence));
    }
    changed |= computation_changed;
  }
  return changed;
}

}  // namespace systolic
