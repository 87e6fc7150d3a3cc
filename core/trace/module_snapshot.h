// The module as it stood after one compiler pass: its text, counts, and the
// provenance of every instruction (which original instructions it came
// from), so any two stages can be drawn side by side and linked op by op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace systolic {
class HloModule;
}

namespace systolic::trace {

struct ProvenanceOrigin {
  int64_t unique_id = 0;
  std::string name;
  friend bool operator==(const ProvenanceOrigin&, const ProvenanceOrigin&) = default;
};

struct InstructionProvenance {
  int64_t unique_id = 0;
  std::string name;
  std::vector<ProvenanceOrigin> origins;  // empty: the instruction is original
  friend bool operator==(const InstructionProvenance&, const InstructionProvenance&) = default;
};

struct ModuleSnapshot {
  std::string pass_name;  // "input" for the module before the first pass
  int64_t pass_duration_ns = 0;
  bool changed = false;
  std::string hlo_text;
  int64_t instruction_count = 0;
  int64_t computation_count = 0;
  std::vector<InstructionProvenance> provenance;
  friend bool operator==(const ModuleSnapshot&, const ModuleSnapshot&) = default;
};

// The snapshot of `module` after `pass_name` (the compiler calls this after
// every pass).
ModuleSnapshot SnapshotModule(const HloModule& module, absl::string_view pass_name,
                              int64_t pass_duration_ns, bool changed);

}  // namespace systolic::trace
