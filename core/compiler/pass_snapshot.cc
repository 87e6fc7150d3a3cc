#include "core/compiler/pass_snapshot.h"

#include <cstring>

#include "core/hlo/hlo_print_options.h"

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
  // A large block (a constant's values): eight bytes at a time on four
  // independent lanes, folded into the state. Byte-wise FNV spent about a
  // nanosecond a byte, a second per snapshot of a module with a hundred
  // megabytes of weights.
  void AddBlock(const void* data, size_t size) {
    constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t lanes[4] = {1, 2, 3, 4};
    size_t i = 0;
    for (; i + 32 <= size; i += 32) {
      for (int l = 0; l < 4; ++l) {
        uint64_t word;
        std::memcpy(&word, bytes + i + 8 * l, 8);
        lanes[l] = (lanes[l] ^ word) * kMul;
        lanes[l] ^= lanes[l] >> 29;
      }
    }
    for (uint64_t lane : lanes) AddInt(lane);
    Add(bytes + i, size - i);
    AddInt(size);
  }
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

// Every field of a shape, so equal hashes mean equal shapes with layouts;
// hashed as numbers rather than printed (a large module's capture spent a
// tenth of its time printing shapes only to hash them).
void AddShape(const Shape& shape, StableHasher& h) {
  h.AddInt(static_cast<uint64_t>(shape.element_type()));
  if (shape.IsTuple()) {
    h.AddInt(uint64_t(shape.tuple_shapes_size()));
    for (const Shape& element : shape.tuple_shapes()) AddShape(element, h);
    return;
  }
  h.AddInt(uint64_t(shape.rank()));
  for (int64_t i = 0; i < shape.rank(); ++i) {
    h.AddInt(uint64_t(shape.dimensions(i)));
    h.AddInt(shape.is_dynamic_dimension(i) ? 1 : 0);
  }
  h.AddInt(shape.has_layout() ? 1 : 0);
  if (!shape.has_layout()) return;
  const Layout& layout = shape.layout();
  for (int64_t d : layout.minor_to_major()) h.AddInt(uint64_t(d));
  h.AddInt(layout.minor_to_major().size());
  for (const std::string& level : layout.dim_level_types()) h.Add(level);
  h.AddInt(layout.dim_level_types().size());
  for (const Tile& tile : layout.tiles()) {
    for (int64_t d : tile.dimensions) h.AddInt(uint64_t(d));
    h.AddInt(tile.dimensions.size());
  }
  h.AddInt(layout.tiles().size());
  h.AddInt(uint64_t(layout.element_size_in_bits()));
  h.AddInt(uint64_t(layout.memory_space()));
  h.AddInt(uint64_t(layout.tail_padding_alignment_in_elements()));
  h.AddInt(static_cast<uint64_t>(layout.index_primitive_type()));
  h.AddInt(static_cast<uint64_t>(layout.pointer_primitive_type()));
  h.AddInt(uint64_t(layout.dynamic_shape_metadata_prefix_bytes()));
}

// The values of a literal (a tuple's elements in order), not their text:
// snapshots print a large constant as `{...}`, so two stages that differ only
// in a weight's values are told apart here.
void AddLiteral(const Literal& literal, StableHasher& h) {
  AddShape(literal.shape(), h);
  h.AddBlock(literal.untyped_data(), size_t(literal.size_bytes()));
  for (int64_t i = 0; i < literal.tuple_size(); ++i) AddLiteral(literal.tuple_element(i), h);
}

// `hashes` holds the hashes of the instructions of `instr`'s computation so
// far, by dense index (operands come first in post order); `scratch` is
// reused for the attribute text.
uint64_t InstructionHash(const HloInstruction& instr, const std::vector<uint64_t>& hashes,
                         const absl::flat_hash_map<const HloComputation*, uint64_t>& computations,
                         std::string& scratch) {
  StableHasher h;
  h.AddInt(static_cast<uint64_t>(instr.opcode()));
  AddShape(instr.shape(), h);
  if (instr.opcode() == HloOpcode::kParameter) h.AddInt(instr.parameter_number());
  if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) {
    AddLiteral(instr.literal(), h);
  }
  scratch.clear();
  instr.AppendAttributesTo(&scratch);
  h.Add(scratch);
  for (const HloInstruction* op : instr.operands()) {
    h.AddInt(op->parent() == instr.parent() ? hashes[size_t(op->index_in_computation())] : 0);
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
  state->counts.computations = module.computation_count();
  state->instructions.reserve(size_t(module.instruction_count()));
  state->index_by_id.reserve(size_t(module.instruction_count()));

  // Records are gathered while the text is printed: one walk over a large
  // module instead of two, each of them bound by cache misses. Printing
  // visits callees before callers and operands before users, which is what
  // the structural hashes need.
  std::vector<uint64_t> hashes;  // of one computation's instructions, by dense index
  std::string scratch;
  absl::flat_hash_map<const HloComputation*, uint64_t> computation_hashes;
  const HloComputation* current = nullptr;
  auto finish_computation = [&] {
    if (current == nullptr) return;
    const HloInstruction* root = current->root_instruction();
    StableHasher ch;
    ch.AddInt(current->num_parameters());
    ch.AddInt(root ? hashes[size_t(root->index_in_computation())] : 0);
    computation_hashes[current] = ch.Finish();
  };
  auto record = [&](const HloInstruction& instr) {
    const HloComputation* c = instr.parent();
    if (c != current) {
      finish_computation();
      current = c;
      hashes.assign(size_t(c->instruction_index_bound()), 0);
    }
    const uint64_t hash = InstructionHash(instr, hashes, computation_hashes, scratch);
    hashes[size_t(instr.index_in_computation())] = hash;
    InstructionRecord& r = state->instructions.emplace_back();
    r.unique_id = instr.unique_id();
    r.name = instr.name();
    r.computation = c->name();
    r.opcode = instr.opcode();
    r.in_fusion = c->IsFusionComputation();
    r.structural_hash = hash;
    r.origins = OriginsOf(instr);
    state->index_by_id[r.unique_id] = state->instructions.size() - 1;
    ++state->counts.instructions;
    if (instr.opcode() == HloOpcode::kFusion) {
      ++state->counts.fusions;
      ++state->counts.fusions_by_kind[instr.fusion_kind()];
    }
  };
  AppendModuleText(module, HloPrintOptions::WithoutLargeConstants(), &state->hlo_text, record);
  finish_computation();
  // The module's identity: its entry computation's, which covers every
  // computation it calls.
  const HloComputation* entry = module.entry_computation();
  auto it = entry ? computation_hashes.find(entry) : computation_hashes.end();
  state->structural_hash = it == computation_hashes.end() ? 0 : it->second;
  return state;
}

}  // namespace systolic
