// The module as it stood after one pass: its HLO text, counts, and one record
// per instruction with a structural identity and the original instructions
// it was made from. Two snapshots are linked op by op through those origins
// (see ProvenanceMapper) and compared structurally through the hashes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/compiler/hlo_pass_interface.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

// One instruction of a snapshot.
struct InstructionRecord {
  int64_t unique_id = -1;
  std::string name;
  std::string computation;
  HloOpcode opcode = HloOpcode::kParameter;
  bool in_fusion = false;  // lives in a fused computation
  // Equal for two instructions (of any snapshots) that compute the same
  // thing: same opcode, shape, layout and attributes, operands with equal
  // hashes, called computations with equal roots. Names and ids don't count.
  uint64_t structural_hash = 0;
  // The original instructions (before the first pass) this one was made
  // from; an original instruction is its own origin, so never empty.
  std::vector<ProvenanceEntry> origins;
};

struct ModuleCounts {
  int64_t instructions = 0;  // all computations, fused ones included
  int64_t computations = 0;
  int64_t fusions = 0;
  std::map<FusionKind, int64_t> fusions_by_kind;
  friend bool operator==(const ModuleCounts&, const ModuleCounts&) = default;
};

// What a snapshot holds about the module itself. Consecutive snapshots
// share it when a pass leaves the module unchanged.
struct ModuleState {
  // The module in HLO text, with large constants printed as `{...}` (their
  // values would make every snapshot as large as the weights); see
  // FullLiteralText for a constant's values.
  std::string hlo_text;
  // Equal for two states whose entry computations compute the same thing
  // (InstructionRecord::structural_hash of the entry's root, constants by
  // their values): two stages that differ only in a large constant's values
  // print the same text but have different hashes.
  uint64_t structural_hash = 0;
  ModuleCounts counts;
  std::vector<InstructionRecord> instructions;  // in print order (callees first)

  const InstructionRecord* Find(int64_t unique_id) const;
  const InstructionRecord* FindByName(absl::string_view computation,
                                      absl::string_view name) const;

  absl::flat_hash_map<int64_t, size_t> index_by_id;
};

struct PassSnapshot {
  int64_t index = 0;               // position in the compilation, 0 = input
  std::string pass_name;           // "input" before the first pass
  std::string pipeline;            // enclosing pipelines, e.g. "default/simplification#2"
  bool changed = false;
  int64_t duration_ns = 0;         // wall time of the pass
  PassRunLog log;                  // what the pass did and why
  std::shared_ptr<const ModuleState> state;

  const std::string& hlo_text() const { return state->hlo_text; }
  const ModuleCounts& counts() const { return state->counts; }
  const std::vector<InstructionRecord>& instructions() const { return state->instructions; }
};

// Captures text, counts and instruction records of `module`.
std::shared_ptr<const ModuleState> CaptureModuleState(const HloModule& module);

// The origins of an instruction: its provenance, or itself when it has none.
std::vector<ProvenanceEntry> OriginsOf(const HloInstruction& instruction);

}  // namespace systolic
