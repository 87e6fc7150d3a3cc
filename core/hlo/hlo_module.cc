#include "core/hlo/hlo_module.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_lexer.h"

namespace systolic {

HloModule::HloModule(std::string name) : name_(std::move(name)) {}

HloModule::~HloModule() = default;

HloComputation* HloModule::AddEntryComputation(std::unique_ptr<HloComputation> computation) {
  entry_ = AddEmbeddedComputation(std::move(computation));
  return entry_;
}

HloComputation* HloModule::AddEmbeddedComputation(std::unique_ptr<HloComputation> computation) {
  HloComputation* raw = computation.get();
  raw->set_parent(this);
  if (raw->unique_id() < 0) raw->SetUniqueId(NewUniqueId());
  // Instructions added before the computation joined the module get ids now.
  for (HloInstruction* instr : raw->instructions()) {
    if (instr->unique_id() < 0) {
      instr->SetUniqueId(NewUniqueId());
    } else {
      ReserveUniqueId(instr->unique_id());
    }
    if (instr->name().empty()) instr->SetName(UniqueName(HloOpcodeString(instr->opcode())));
    RegisterName(instr->name());
  }
  computations_.push_back(std::move(computation));
  return raw;
}

void HloModule::RemoveComputation(HloComputation* computation) {
  schedule_.erase(computation);
  computations_.erase(std::remove_if(computations_.begin(), computations_.end(),
                                     [&](const auto& c) { return c.get() == computation; }),
                      computations_.end());
}

int64_t HloModule::RemoveUnusedComputations() {
  if (!entry_) return 0;
  absl::flat_hash_set<const HloComputation*> live = {entry_};
  for (HloComputation* c : entry_->MakeEmbeddedComputationsList()) live.insert(c);
  std::vector<HloComputation*> dead;
  for (const auto& c : computations_) {
    if (!live.contains(c.get())) dead.push_back(c.get());
  }
  for (HloComputation* c : dead) RemoveComputation(c);
  return int64_t(dead.size());
}

std::vector<HloComputation*> HloModule::computations() const {
  std::vector<HloComputation*> out;
  out.reserve(computations_.size());
  for (const auto& c : computations_) out.push_back(c.get());
  return out;
}

std::vector<HloComputation*> HloModule::MakeComputationPostOrder() const {
  std::vector<HloComputation*> order;
  absl::flat_hash_set<const HloComputation*> visited;
  std::function<void(HloComputation*)> visit = [&](HloComputation* c) {
    if (!visited.insert(c).second) return;
    for (HloInstruction* instr : c->instructions()) {
      for (HloComputation* callee : instr->called_computations()) visit(callee);
    }
    order.push_back(c);
  };
  // Keep the module's own order among independent computations; entry last.
  for (const auto& c : computations_) {
    if (c.get() != entry_) visit(c.get());
  }
  if (entry_) visit(entry_);
  return order;
}

HloComputation* HloModule::GetComputationWithName(absl::string_view name) const {
  for (const auto& c : computations_) {
    if (c->name() == name) return c.get();
  }
  return nullptr;
}

int64_t HloModule::instruction_count() const {
  int64_t n = 0;
  for (const auto& c : computations_) n += c->instruction_count();
  return n;
}

std::string HloModule::UniqueName(absl::string_view prefix) {
  if (!names_built_) {
    names_built_ = true;
    for (const auto& c : computations_) {
      for (HloInstruction* instr : c->instructions()) names_.insert(instr->name());
    }
  }
  // A name must print and parse back: characters HLO text cannot hold in
  // a name (a StableHLO symbol may: @"f$1") become '_'.
  std::string base(prefix);
  for (char& c : base) {
    if (!HloLexer::IsNameChar(c)) c = '_';
  }
  if (base.empty()) base.push_back('_');
  if (names_.insert(base).second) return base;
  int64_t& counter = name_counters_[base];
  while (true) {
    std::string candidate = absl::StrCat(base, ".", ++counter);
    if (names_.insert(candidate).second) return candidate;
  }
}

const std::vector<HloInstruction*>* HloModule::schedule(const HloComputation* c) const {
  auto it = schedule_.find(c);
  return it == schedule_.end() ? nullptr : &it->second;
}

void HloModule::set_schedule(const HloComputation* c, std::vector<HloInstruction*> sequence) {
  schedule_[c] = std::move(sequence);
}

std::unique_ptr<HloModule> HloModule::Clone() const {
  auto clone = std::make_unique<HloModule>(name_);
  clone->next_unique_id_ = next_unique_id_;
  clone->names_ = names_;
  clone->names_built_ = names_built_;
  clone->name_counters_ = name_counters_;
  clone->replica_count_ = replica_count_;
  clone->num_partitions_ = num_partitions_;
  clone->use_spmd_partitioning_ = use_spmd_partitioning_;
  clone->entry_layout_ = entry_layout_;
  clone->aliases_ = aliases_;
  clone->donors_ = donors_;
  clone->is_scheduled_ = is_scheduled_;
  clone->frontend_attributes_ = frontend_attributes_;
  clone->raw_attributes_ = raw_attributes_;
  clone->source_filename_ = source_filename_;

  absl::flat_hash_map<const HloComputation*, HloComputation*> computation_map;
  absl::flat_hash_map<const HloInstruction*, HloInstruction*> instruction_map;
  for (HloComputation* c : MakeComputationPostOrder()) {
    auto copy = std::make_unique<HloComputation>(c->name());
    copy->SetUniqueId(c->unique_id());
    copy->set_execution_thread(c->execution_thread());
    HloComputation* raw = copy.get();
    raw->set_parent(clone.get());
    for (HloInstruction* instr : c->MakeInstructionPostOrder()) {
      std::vector<HloInstruction*> operands;
      for (HloInstruction* op : instr->operands()) operands.push_back(instruction_map.at(op));
      auto new_instr = instr->CloneWithNewOperands(instr->shape(), operands);
      new_instr->set_provenance(instr->provenance());
      new_instr->SetUniqueId(instr->unique_id());
      for (int64_t i = 0; i < int64_t(new_instr->called_computations().size()); ++i) {
        new_instr->set_called_computation(i, computation_map.at(instr->called_computations()[i]));
      }
      HloInstruction* added = instr->opcode() == HloOpcode::kParameter
                                  ? raw->AddParameter(std::move(new_instr))
                                  : raw->AddInstruction(std::move(new_instr));
      if (added->opcode() == HloOpcode::kFusion) {
        added->fused_instructions_computation()->SetFusionInstruction(added);
      }
      instruction_map[instr] = added;
    }
    for (HloInstruction* instr : c->instructions()) {
      for (HloInstruction* succ : instr->control_successors()) {
        instruction_map.at(instr)->AddControlDependencyTo(instruction_map.at(succ));
      }
    }
    raw->set_root_instruction(instruction_map.at(c->root_instruction()));
    computation_map[c] = raw;
    clone->computations_.push_back(std::move(copy));
    if (c == entry_) clone->entry_ = raw;
  }
  for (const auto& [computation, sequence] : schedule_) {
    auto it = computation_map.find(computation);
    if (it == computation_map.end()) continue;
    std::vector<HloInstruction*> mapped;
    for (HloInstruction* instr : sequence) mapped.push_back(instruction_map.at(instr));
    clone->schedule_[it->second] = std::move(mapped);
  }
  return clone;
}

}  // namespace systolic
