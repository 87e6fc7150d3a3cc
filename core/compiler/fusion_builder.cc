#include "core/compiler/fusion_builder.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"

namespace systolic {

FusionBuilder::FusionBuilder(HloModule* module) : module_(module) {
  for (const HloComputation* c : module->computations()) computation_names_.insert(c->name());
}

std::string FusionBuilder::UniqueComputationName(const std::string& base) {
  std::string name = base;
  for (int64_t i = 1; !computation_names_.insert(name).second; ++i) name = absl::StrCat(base, ".", i);
  return name;
}

absl::StatusOr<HloInstruction*> FusionBuilder::Fuse(
    const std::vector<HloInstruction*>& instructions,
    const std::vector<HloInstruction*>& outputs, FusionKind kind) {
  if (instructions.empty() || outputs.empty()) {
    return absl::InvalidArgumentError("a fusion needs instructions and outputs");
  }
  HloComputation* computation = instructions.front()->parent();
  absl::flat_hash_set<const HloInstruction*> members(instructions.begin(), instructions.end());

  auto fused = std::make_unique<HloComputation>("fused_computation");
  absl::flat_hash_set<std::string> local_names;
  // Member (or inlined fused instruction) -> its copy in `fused`.
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> map;
  std::vector<HloInstruction*> fusion_operands;

  auto add_copy = [&](const HloInstruction* original,
                      const std::vector<HloInstruction*>& operands) -> HloInstruction* {
    // get-tuple-element of a tuple built in here reads the element directly.
    if (original->opcode() == HloOpcode::kGetTupleElement &&
        operands[0]->opcode() == HloOpcode::kTuple && operands[0]->parent() == fused.get()) {
      HloInstruction* element = operands[0]->mutable_operand(original->tuple_index());
      element->MergeProvenanceFrom(*original);
      return element;
    }
    auto copy = original->CloneWithNewOperands(original->shape(), operands);
    if (!local_names.insert(copy->name()).second) {
      copy->SetName(module_->UniqueName(original->name()));
      local_names.insert(copy->name());
    }
    return fused->AddInstruction(std::move(copy));
  };

  auto value_of = [&](HloInstruction* operand) -> HloInstruction* {
    auto it = map.find(operand);
    if (it != map.end()) return it->second;
    if (operand->opcode() == HloOpcode::kConstant && operand->shape().IsArray() &&
        operand->shape().num_elements() <= 1) {
      // A scalar constant is cheaper inside than read from memory.
      HloInstruction* copy = add_copy(operand, {});
      map[operand] = copy;
      return copy;
    }
    // A value from outside: a new parameter that stands for it.
    const int64_t number = int64_t(fusion_operands.size());
    std::string name = absl::StrCat("param_", number);
    local_names.insert(name);
    auto param = HloInstruction::CreateParameter(number, operand->shape(), name);
    param->MergeProvenanceFrom(*operand);
    HloInstruction* added = fused->AddParameter(std::move(param));
    fusion_operands.push_back(operand);
    map[operand] = added;
    return added;
  };
  for (HloInstruction* member : instructions) {
    if (member->parent() != computation) {
      return absl::InvalidArgumentError(
          absl::StrCat("%", member->name(), " is not in computation %", computation->name()));
    }
    if (member->opcode() == HloOpcode::kFusion) {
      // Inline the member fusion: its parameters are its operands' values.
      const HloComputation* inner = member->fused_instructions_computation();
      absl::flat_hash_map<const HloInstruction*, HloInstruction*> inner_map;
      for (int64_t i = 0; i < member->operand_count(); ++i) {
        inner_map[inner->parameter_instruction(i)] = value_of(member->mutable_operand(i));
      }
      for (HloInstruction* instr : inner->MakeInstructionPostOrder()) {
        if (instr->opcode() == HloOpcode::kParameter) continue;
        std::vector<HloInstruction*> operands;
        for (HloInstruction* op : instr->operands()) operands.push_back(inner_map.at(op));
        inner_map[instr] = add_copy(instr, operands);
      }
      map[member] = inner_map.at(inner->root_instruction());
      continue;
    }
    std::vector<HloInstruction*> operands;
    for (HloInstruction* op : member->operands()) operands.push_back(value_of(op));
    map[member] = add_copy(member, operands);
  }

  HloInstruction* root;
  if (outputs.size() == 1) {
    root = map.at(outputs.front());
  } else {
    std::vector<HloInstruction*> elements;
    for (HloInstruction* output : outputs) elements.push_back(map.at(output));
    root = fused->AddInstruction(HloInstruction::CreateTuple(elements));
    for (HloInstruction* output : outputs) root->MergeProvenanceFrom(*output);
  }
  fused->set_root_instruction(root);
  // Inlined tuples read only through get-tuple-element are dead now.
  std::vector<HloInstruction*> order = fused->MakeInstructionPostOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if ((*it)->IsDead() && (*it)->opcode() != HloOpcode::kParameter) {
      SYSTOLIC_RETURN_IF_ERROR(fused->RemoveInstruction(*it));
    }
  }

  const std::string fusion_name = module_->UniqueName("fusion");
  fused->SetName(UniqueComputationName(
      absl::StrCat("fused_computation", fusion_name.substr(std::string("fusion").size()))));
  HloComputation* fused_raw = module_->AddEmbeddedComputation(std::move(fused));
  auto fusion_instr =
      HloInstruction::CreateFusion(root->shape(), kind, fusion_operands, fused_raw);
  fusion_instr->SetName(fusion_name);
  // As XLA does: the fusion carries its (first) output's metadata, so views
  // group it under that op's layer.
  fusion_instr->set_metadata(outputs.front()->metadata());
  for (HloInstruction* member : instructions) fusion_instr->MergeProvenanceFrom(*member);
  HloInstruction* fusion = computation->AddInstruction(std::move(fusion_instr));

  // Outside users read the fusion (one output) or its elements.
  for (size_t k = 0; k < outputs.size(); ++k) {
    HloInstruction* output = outputs[k];
    HloInstruction* value = fusion;
    if (outputs.size() > 1) {
      value = computation->AddInstruction(HloInstruction::CreateGetTupleElement(fusion, int64_t(k)));
      value->MergeProvenanceFrom(*output);
    }
    std::vector<HloInstruction*> users = output->users();
    for (HloInstruction* user : users) {
      if (!members.contains(user)) user->ReplaceUseWith(output, value);
    }
    if (output->IsRoot()) computation->set_root_instruction(value);
  }
  // Control dependencies of members move to the fusion.
  for (HloInstruction* member : instructions) {
    for (HloInstruction* pred : member->control_predecessors()) {
      if (!members.contains(pred)) pred->AddControlDependencyTo(fusion);
    }
    for (HloInstruction* succ : member->control_successors()) {
      if (!members.contains(succ)) fusion->AddControlDependencyTo(succ);
    }
  }
  for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
    HloInstruction* member = *it;
    member->RemoveAllControlDependencies();
    if (!member->users().empty() || member->IsRoot()) {
      return absl::InternalError(absl::StrCat("fusion member %", member->name(),
                                              " is still used outside the fusion"));
    }
    SYSTOLIC_RETURN_IF_ERROR(computation->RemoveInstruction(member));
  }
  return fusion;
}

}  // namespace systolic
