#include "core/analysis/stage_module.h"

#include <deque>

#include "core/hlo/hlo_parser.h"

namespace systolic::analysis {

absl::StatusOr<std::unique_ptr<StageModule>> StageModule::Parse(const trace::ModuleSnapshot& snapshot) {
  HloParseOptions options;
  options.filename = snapshot.pass_name.empty() ? "<stage>" : "<stage " + snapshot.pass_name + ">";
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndReturnUnverifiedModule(snapshot.hlo_text, options);
  if (!module.ok()) return module.status();
  std::unique_ptr<StageModule> stage(new StageModule());
  stage->module_ = std::move(*module);
  stage->Index(snapshot, /*same_order=*/false);
  return stage;
}

std::unique_ptr<StageModule> StageModule::Adopt(std::unique_ptr<HloModule> module,
                                                const trace::ModuleSnapshot& snapshot) {
  std::unique_ptr<StageModule> stage(new StageModule());
  stage->module_ = std::move(module);
  stage->Index(snapshot, /*same_order=*/true);
  return stage;
}

void StageModule::Index(const trace::ModuleSnapshot& snapshot, bool same_order) {
  pass_name_ = snapshot.pass_name;
  // The module's instructions in the order SnapshotModule records them.
  std::vector<const HloInstruction*> instructions;
  for (const HloComputation* computation : module_->MakeComputationPostOrder()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      order_[instruction] = int64_t(instructions.size());
      instructions.push_back(instruction);
      by_name_[instruction->name()].push_back(instruction);
    }
  }

  std::vector<std::pair<const HloInstruction*, const trace::InstructionProvenance*>> matched;
  bool aligned = same_order && instructions.size() == snapshot.provenance.size();
  for (size_t i = 0; aligned && i < instructions.size(); ++i) {
    aligned = instructions[i]->name() == snapshot.provenance[i].name;
  }
  if (aligned) {
    for (size_t i = 0; i < instructions.size(); ++i) {
      matched.push_back({instructions[i], &snapshot.provenance[i]});
    }
  } else {
    // Printing reorders instructions and parsing renumbers them; names
    // survive, and a name that repeats repeats in the same order.
    absl::flat_hash_map<std::string, std::deque<const trace::InstructionProvenance*>> records;
    for (const trace::InstructionProvenance& record : snapshot.provenance) {
      records[record.name].push_back(&record);
    }
    for (const HloInstruction* instruction : instructions) {
      auto it = records.find(instruction->name());
      if (it == records.end() || it->second.empty()) continue;
      matched.push_back({instruction, it->second.front()});
      it->second.pop_front();
    }
  }

  for (const auto& [instruction, record] : matched) {
    std::vector<int64_t>& origins = origins_[instruction];
    if (record->origins.empty()) {
      origins.push_back(record->unique_id);
      origin_names_.try_emplace(record->unique_id, record->name);
    }
    for (const trace::ProvenanceOrigin& origin : record->origins) {
      origins.push_back(origin.unique_id);
      origin_names_.try_emplace(origin.unique_id, origin.name);
    }
    for (int64_t origin : origins) made_from_[origin].push_back(instruction);
  }
}

absl::Span<const int64_t> StageModule::OriginsOf(const HloInstruction* instruction) const {
  auto it = origins_.find(instruction);
  if (it == origins_.end()) return {};
  return it->second;
}

absl::Span<const HloInstruction* const> StageModule::MadeFrom(int64_t origin_id) const {
  auto it = made_from_.find(origin_id);
  if (it == made_from_.end()) return {};
  return it->second;
}

const std::string* StageModule::OriginName(int64_t origin_id) const {
  auto it = origin_names_.find(origin_id);
  return it == origin_names_.end() ? nullptr : &it->second;
}

int64_t StageModule::ProgramOrder(const HloInstruction* instruction) const {
  auto it = order_.find(instruction);
  return it == order_.end() ? -1 : it->second;
}

const HloInstruction* StageModule::FindInstruction(absl::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return nullptr;
  for (const HloInstruction* instruction : it->second) {
    if (instruction->parent() == module_->entry_computation()) return instruction;
  }
  return it->second.front();
}

}  // namespace systolic::analysis
