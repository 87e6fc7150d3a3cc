// A compiled program: its module after each pass, the sharding of every
// instruction and its buffer assignment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/trace/buffer_assignment_record.h"
#include "core/trace/module_snapshot.h"

namespace systolic::trace {

struct InstructionSharding {
  int64_t unique_id = 0;
  std::string instruction;
  std::string sharding;  // HLO text: "{devices=[2,2]0,1,2,3}"
  friend bool operator==(const InstructionSharding&, const InstructionSharding&) = default;
};

struct ProgramRecord {
  int64_t id = 0;
  std::string name;
  std::string fingerprint;
  std::vector<ModuleSnapshot> snapshots;  // in pass order; the first is the input
  std::vector<InstructionSharding> shardings;
  BufferAssignmentRecord buffer_assignment;
  friend bool operator==(const ProgramRecord&, const ProgramRecord&) = default;
};

// A program id as profilers write it: signed, or unsigned (a 64-bit
// fingerprint, kept as its bits); nullopt when `text` is no integer.
std::optional<int64_t> ParseProgramId(absl::string_view text);

// XLA names a program's events "<module>(<program id>)": the module and the
// id, or the whole name and nullopt when it carries no id.
struct ModuleAndProgramId {
  absl::string_view module;
  std::optional<int64_t> id;
};
ModuleAndProgramId SplitModuleAndProgramId(absl::string_view name);

// The sharding of every instruction of `module` that has one.
std::vector<InstructionSharding> CollectShardings(const HloModule& module);

}  // namespace systolic::trace
