#include "core/analysis/stage_changes.h"

#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_print_options.h"

namespace systolic::analysis {
namespace {

// Each instruction's printed text by name, in program order (a name that
// repeats across computations keeps all of its texts).
struct StageInstructions {
  std::vector<std::string> names;
  absl::flat_hash_map<std::string, std::string> text;
};

absl::StatusOr<StageInstructions> Instructions(const trace::ModuleSnapshot& snapshot) {
  HloParseOptions options;
  options.filename = absl::StrCat("<stage ", snapshot.pass_name, ">");
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndReturnUnverifiedModule(snapshot.hlo_text, options);
  if (!module.ok()) return module.status();
  StageInstructions stage;
  const HloPrintOptions print = HloPrintOptions::WithoutLargeConstants();
  for (const HloComputation* computation : (*module)->MakeComputationPostOrder()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      auto [it, inserted] = stage.text.try_emplace(instruction->name());
      if (inserted) stage.names.push_back(instruction->name());
      AppendInstructionText(*instruction, print, &it->second);
      it->second.push_back('\n');
    }
  }
  return stage;
}

StageChange Compare(const StageInstructions& before, const StageInstructions& after) {
  StageChange change;
  for (const std::string& name : after.names) {
    auto it = before.text.find(name);
    if (it == before.text.end()) {
      change.added.push_back(name);
    } else if (it->second != after.text.at(name)) {
      change.changed.push_back(name);
    }
  }
  for (const std::string& name : before.names) {
    if (!after.text.contains(name)) change.removed.push_back(name);
  }
  return change;
}

void SetCounts(const trace::ModuleSnapshot& before, const trace::ModuleSnapshot& after,
               StageChange* change) {
  change->pass_name = after.pass_name;
  change->instructions_before = before.instruction_count;
  change->instructions_after = after.instruction_count;
}

}  // namespace

absl::StatusOr<StageChange> CompareStages(const trace::ModuleSnapshot& before,
                                          const trace::ModuleSnapshot& after) {
  StageChange change;
  if (before.hlo_text != after.hlo_text) {
    absl::StatusOr<StageInstructions> from = Instructions(before);
    if (!from.ok()) return from.status();
    absl::StatusOr<StageInstructions> to = Instructions(after);
    if (!to.ok()) return to.status();
    change = Compare(*from, *to);
  }
  SetCounts(before, after, &change);
  return change;
}

absl::StatusOr<std::vector<StageChange>> StageChanges(const trace::ProgramRecord& program) {
  std::vector<StageChange> changes;
  // Each stage is parsed once: it is the "after" of one pair and the
  // "before" of the next (an unchanged stage keeps the text parsed last).
  std::optional<StageInstructions> previous;
  for (size_t i = 1; i < program.snapshots.size(); ++i) {
    const trace::ModuleSnapshot& before = program.snapshots[i - 1];
    const trace::ModuleSnapshot& after = program.snapshots[i];
    StageChange change;
    if (before.hlo_text != after.hlo_text) {
      if (!previous) {
        absl::StatusOr<StageInstructions> parsed = Instructions(before);
        if (!parsed.ok()) return parsed.status();
        previous = std::move(*parsed);
      }
      absl::StatusOr<StageInstructions> next = Instructions(after);
      if (!next.ok()) return next.status();
      change = Compare(*previous, *next);
      previous = std::move(*next);
    }
    SetCounts(before, after, &change);
    change.stage = int64_t(i);
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace systolic::analysis
