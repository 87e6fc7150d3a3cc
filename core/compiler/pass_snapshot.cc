#include "core/compiler/pass_snapshot.h"

#include <cstring>

namespace systolic {
namespace {

// FNV-1a with a final mix: stable across runs and machines (snapshots are
// saved in profiles), unlike absl::Hash.
class StableHasher {
 public:
  void Add(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i) {
      state_ ^= bytes[i];
      state_ *= 0x100000001b3ULL;
    }
  }
  void Add(absl::string_view s) {
    Add(s.data(), s.size());
    AddInt(s.size());
  }
  void AddInt(uint64_t v) { Add(&v, sizeof(v)); }
  uint64_t Finish() const {
    uint64_t h = state_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
  }

 private:
  uint64_t state_ = 0xcbf29ce484222325ULL;
};

uint64_t InstructionHash(const HloInstruction& instr,
                         const absl::flat_hash_map<const HloInstruction*, uint64_t>& hashes,
                         const absl::flat_hash_map<const HloComputation*, uint64_t>& computations) {
  StableHasher h;
  h.AddInt(static_cast<uint64_t>(instr.opcode()));
  h.Add(instr.shape().ToString(/*print_layout=*/true));
  if (instr.opcode() == HloOpcode::kParameter) h.AddInt(instr.parameter_number());
  if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) {
    h.Add(instr.literal().untyped_data(), instr.literal().size_bytes());
  }
  h.Add(instr.AttributesToString());
  for (const HloInstruction* op : instr.operands()) {
    auto it = hashes.find(op);
    h.AddInt(it == hashes.end() ? 0 : it->second);
  }
  for (const HloComputation* c : instr.called_computations()) {
    auto it = computations.find(c);
    h.AddInt(it == computations.end() ? 0 : it->second);
  }
  return h.Finish();
}

}  // namespace

std::vector<ProvenanceEntry> OriginsOf(const HloInstruction& instruction) {
  if (!instruction.provenance().empty()) return instruction.provenance();
  return {ProvenanceEntry{instruction.unique_id(), instruction.name()}};
}

const InstructionRecord* ModuleState::Find(int64_t unique_id) const {
  auto it = index_by_id.find(unique_id);
  return it == index_by_id.end() ? nullptr : &instructions[it->second];
}

const InstructionRecord* ModuleState::FindByName(absl::string_view computation,
                                                 absl::string_view name) const {
  for (const InstructionRecord& r : instructions) {
    if (r.name == name && r.computation == computation) return &r;
  }
  return nullptr;
}

std::shared_ptr<const ModuleState> CaptureModuleState(const HloModule& module) {
  auto state = std::make_shared<ModuleState>();
  state->hlo_text = module.ToString();
  state->counts.computations = module.computation_count();
  state->instructions.reserve(module.instruction_count());

  absl::flat_hash_map<const HloInstruction*, uint64_t> hashes;
  absl::flat_hash_map<const HloComputation*, uint64_t> computation_hashes;
  hashes.reserve(module.instruction_count());
  for (const HloComputation* c : module.MakeComputationPostOrder()) {
    for (const HloInstruction* instr : c->MakeInstructionPostOrder()) {
      uint64_t hash = InstructionHash(*instr, hashes, computation_hashes);
      hashes[instr] = hash;
      InstructionRecord record;
      record.unique_id = instr->unique_id();
      record.name = instr->name();
      record.computation = c->name();
      record.opcode = instr->opcode();
      record.in_fusion = c->IsFusionComputation();
      record.structural_hash = hash;
      record.origins = OriginsOf(*instr);
      state->index_by_id[record.unique_id] = state->instructions.size();
      state->instructions.push_back(std::move(record));
      ++state->counts.instructions;
      if (instr->opcode() == HloOpcode::kFusion) {
        ++state->counts.fusions;
        ++state->counts.fusions_by_kind[instr->fusion_kind()];
      }
    }
    StableHasher ch;
    ch.AddInt(c->num_parameters());
    ch.AddInt(c->root_instruction() ? hashes[c->root_instruction()] : 0);
    computation_hashes[c] = ch.Finish();
  }
  return state;
}

}  // namespace systolic
