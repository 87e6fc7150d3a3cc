#include "core/compiler/collective_combiner.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/compiler/hlo_reachability.h"
#include "core/compiler/shape_size.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Two reductions that compute the same thing: the same instructions in the
// same order with the same shapes, attributes and wiring.
bool SameReduction(const HloComputation* a, const HloComputation* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  const std::vector<HloInstruction*> pa = a->MakeInstructionPostOrder();
  const std::vector<HloInstruction*> pb = b->MakeInstructionPostOrder();
  if (pa.size() != pb.size()) return false;
  absl::flat_hash_map<const HloInstruction*, size_t> index_a, index_b;
  for (size_t i = 0; i < pa.size(); ++i) {
    index_a[pa[i]] = i;
    index_b[pb[i]] = i;
  }
  for (size_t i = 0; i < pa.size(); ++i) {
    const HloInstruction& x = *pa[i];
    const HloInstruction& y = *pb[i];
    if (x.opcode() != y.opcode() || !(x.shape() == y.shape()) ||
        x.operand_count() != y.operand_count() || !x.called_computations().empty() ||
        !y.called_computations().empty() || x.AttributesToString() != y.AttributesToString()) {
      return false;
    }
    if (x.opcode() == HloOpcode::kParameter && x.parameter_number() != y.parameter_number()) {
      return false;
    }
    if (x.opcode() == HloOpcode::kConstant && !(x.literal() == y.literal())) return false;
    for (int64_t k = 0; k < x.operand_count(); ++k) {
      if (index_a[x.operand(k)] != index_b[y.operand(k)]) return false;
    }
  }
  return a->root_instruction() != nullptr && b->root_instruction() != nullptr &&
         index_a[a->root_instruction()] == index_b[b->root_instruction()];
}

}  // namespace

CollectiveCombiner::CollectiveCombiner(HloOpcode opcode, CollectiveCombinerOptions options)
    : opcode_(opcode),
      options_(options),
      name_(absl::StrCat(HloOpcodeString(opcode), "-combiner")) {}

absl::StatusOr<bool> CollectiveCombiner::Run(HloModule* module) {
  const bool reduces = opcode_ == HloOpcode::kAllReduce || opcode_ == HloOpcode::kReduceScatter;
  const bool has_dimension =
      opcode_ == HloOpcode::kAllGather || opcode_ == HloOpcode::kReduceScatter;
  auto candidate = [&](const HloInstruction& instr) {
    return instr.opcode() == opcode_ && instr.operand_count() == 1 && instr.shape().IsArray() &&
           instr.operand(0)->shape().IsArray() && instr.control_predecessors().empty() &&
           instr.control_successors().empty() && !instr.constrain_layout() &&
           (!reduces || instr.to_apply() != nullptr);
  };
  auto compatible = [&](const HloInstruction& a, const HloInstruction& b) {
    return a.device_list() == b.device_list() &&
           a.channel_id().has_value() == b.channel_id().has_value() &&
           a.use_global_device_ids() == b.use_global_device_ids() &&
           (!has_dimension || a.dimensions() == b.dimensions()) &&
           (!reduces || SameReduction(a.to_apply(), b.to_apply()));
  };

  bool changed = false;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    std::vector<HloInstruction*> candidates;
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (candidate(*instr)) candidates.push_back(instr);
    }
    if (candidates.size() < 2) continue;

    // Greedy in program order: join the open group that does the same
    // thing, unless that would make a cycle or pass the limits; then the
    // group is closed and the collective starts a new one.
    const HloReachability reachability(computation);
    struct Group {
      std::vector<HloInstruction*> members;
      int64_t bytes = 0;
    };
    std::vector<Group> open, closed;
    for (HloInstruction* instr : candidates) {
      const int64_t bytes = ByteSizeOf(instr->operand(0)->shape());
      Group* match = nullptr;
      for (Group& g : open) {
        if (compatible(*g.members.front(), *instr)) {
          match = &g;
          break;
        }
      }
      if (match != nullptr) {
        bool independent = true;
        for (const HloInstruction* m : match->members) {
          if (reachability.IsReachable(m, instr) || reachability.IsReachable(instr, m)) {
            independent = false;
            break;
          }
        }
        if (independent && match->bytes + bytes <= options_.max_bytes &&
            int64_t(match->members.size()) < options_.max_count) {
          match->members.push_back(instr);
          match->bytes += bytes;
          continue;
        }
        closed.push_back(std::move(*match));
        *match = Group{{instr}, bytes};
        continue;
      }
      open.push_back(Group{{instr}, bytes});
    }
    for (Group& g : open) closed.push_back(std::move(g));

    for (const Group& g : closed) {
      if (g.members.size() < 2) continue;
      std::vector<HloInstruction*> operands;
      std::vector<Shape> shapes;
      for (HloInstruction* m : g.members) {
        operands.push_back(m->mutable_operand(0));
        shapes.push_back(m->shape());
      }
      std::unique_ptr<HloInstruction> combined_owned =
          g.members.front()->CloneWithNewOperands(Shape::MakeTuple(shapes), operands);
      combined_owned->SetName(std::string());
      combined_owned->set_provenance({});
      for (const HloInstruction* m : g.members) combined_owned->MergeProvenanceFrom(*m);
      HloInstruction* combined = computation->AddInstruction(std::move(combined_owned));
      std::vector<std::string> names;
      for (size_t i = 0; i < g.members.size(); ++i) {
        HloInstruction* member = g.members[i];
        names.push_back(absl::StrCat("%", member->name()));
        HloInstruction* element = computation->AddInstruction(
            HloInstruction::CreateGetTupleElement(combined, int64_t(i)));
        element->set_provenance({});
        element->MergeProvenanceFrom(*member);
        SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(member, element));
      }
      run_log().CountRewrite(absl::StrCat("combine ", HloOpcodeString(opcode_), "s"));
      run_log().AddDecision(absl::StrCat("combined ", absl::StrJoin(names, ", "), " into %",
                                         combined->name(), " (", g.bytes, " bytes)"));
      changed = true;
    }
  }
  return changed;
}

}  // namespace systolic
