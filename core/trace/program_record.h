// A compiled program: its module after each pass, the sharding of every
// instruction and its buffer assignment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// The sharding of every instruction of `module` that has one.
std::vector<InstructionSharding> CollectShardings(const HloModule& module);

}  // namespace systolic::trace
