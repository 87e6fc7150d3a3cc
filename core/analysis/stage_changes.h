// What each pass changed in a program, stage by stage: the instructions it
// added, removed and rewrote (by name, as XLA's dumps and the project's
// snapshots both keep them) and the instruction counts before and after.
// The "what changed" of `systolic passes` and the studio's stage lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace/program_record.h"

namespace systolic::analysis {

struct StageChange {
  int64_t stage = 0;  // the snapshot's index in the program (1 for the first pass)
  std::string pass_name;
  int64_t instructions_before = 0;
  int64_t instructions_after = 0;
  // Instruction names, in the later stage's (or for removed, the earlier
  // stage's) program order.
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::vector<std::string> changed;  // same name, different text
};

// The changes from `before` to `after`; an error names the stage whose text
// does not parse.
absl::StatusOr<StageChange> CompareStages(const trace::ModuleSnapshot& before,
                                          const trace::ModuleSnapshot& after);

// One entry per stage after the first, in order.
absl::StatusOr<std::vector<StageChange>> StageChanges(const trace::ProgramRecord& program);

}  // namespace systolic::analysis
