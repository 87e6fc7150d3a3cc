// `systolic passes PROFILE|DUMP_DIR [--module NAME] [--json]`: what each
// pass changed in each program — instructions added, removed and rewritten
// (by name) and the instruction counts before and after — for a saved
// profile's programs or an XLA dump folder's modules.
//
// --json keys: input, programs [id, name, stages [stage, pass, instructions_before,
// instructions_after, added, removed, changed]].
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "core/analysis/stage_changes.h"
#include "core/trace/profile_reader.h"
#include "core/trace/xla_dump_importer.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

// Names printed per list before "and N more" (--json lists them all).
constexpr size_t kNamesShown = 8;

absl::StatusOr<trace::Profile> LoadProfileOrDump(const std::string& input,
                                                 std::vector<std::string>* errors) {
  std::error_code error;
  if (!std::filesystem::is_directory(input, error)) return trace::ReadProfileFile(input);
  trace::XlaDumpImportReport report;
  absl::StatusOr<trace::Profile> profile = trace::ImportXlaDumpFolder(input, &report);
  *errors = report.errors;
  return profile;
}

std::string NameList(const std::vector<std::string>& names) {
  if (names.size() <= kNamesShown) return absl::StrJoin(names, ", ");
  std::vector<std::string> shown(names.begin(), names.begin() + kNamesShown);
  return absl::StrCat(absl::StrJoin(shown, ", "), " and ", names.size() - kNamesShown, " more");
}

void PrintChanges(const trace::ProgramRecord& program,
                  const std::vector<analysis::StageChange>& changes, std::ostream& out) {
  out << program.name << " (program " << program.id << "): " << program.snapshots.size()
      << " stages\n";
  for (const analysis::StageChange& change : changes) {
    out << absl::StrFormat("  %3d %-40s %6d -> %-6d +%d -%d ~%d\n", change.stage,
                           change.pass_name, change.instructions_before,
                           change.instructions_after, change.added.size(),
                           change.removed.size(), change.changed.size());
    if (!change.added.empty()) out << "        added: " << NameList(change.added) << "\n";
    if (!change.removed.empty()) out << "        removed: " << NameList(change.removed) << "\n";
    if (!change.changed.empty()) out << "        changed: " << NameList(change.changed) << "\n";
  }
}

nlohmann::json ChangesJson(const trace::ProgramRecord& program,
                           const std::vector<analysis::StageChange>& changes) {
  nlohmann::json stages = nlohmann::json::array();
  for (const analysis::StageChange& change : changes) {
    stages.push_back({{"stage", change.stage},
                      {"pass", change.pass_name},
                      {"instructions_before", change.instructions_before},
                      {"instructions_after", change.instructions_after},
                      {"added", change.added},
                      {"removed", change.removed},
                      {"changed", change.changed}});
  }
  return {{"id", program.id}, {"name", program.name}, {"stages", stages}};
}

int RunPasses(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1) {
    err << "systolic passes: give one profile or XLA dump folder\n";
    return 2;
  }
  const std::string& input = args.positional()[0];
  std::vector<std::string> load_errors;
  absl::StatusOr<trace::Profile> profile = LoadProfileOrDump(input, &load_errors);
  if (!profile.ok()) {
    err << "systolic passes: " << profile.status().message() << "\n";
    return 1;
  }
  for (const std::string& error : load_errors) err << "warning: " << error << "\n";
  const std::optional<std::string> module = args.Get("module");
  nlohmann::json programs = nlohmann::json::array();
  int shown = 0;
  for (const trace::ProgramRecord& program : profile->programs) {
    if (module && program.name != *module) continue;
    absl::StatusOr<std::vector<analysis::StageChange>> changes = analysis::StageChanges(program);
    if (!changes.ok()) {
      err << "systolic passes: " << program.name << ": " << changes.status().message() << "\n";
      return 1;
    }
    ++shown;
    if (args.Has("json")) {
      programs.push_back(ChangesJson(program, *changes));
    } else {
      PrintChanges(program, *changes, out);
    }
  }
  if (module && shown == 0) {
    err << "systolic passes: no program named " << *module << " in " << input << "\n";
    return 1;
  }
  if (args.Has("json")) {
    out << nlohmann::json({{"input", input}, {"programs", programs}}).dump(2) << "\n";
  }
  return 0;
}

const CommandRegistration kRegistration({
    .name = "passes",
    .summary = "what each pass changed in each program of a profile or an XLA dump folder",
    .options = {{"module", "NAME", "only the program (module) of this name"},
                {"json", "", "print the changes as JSON"}},
    .positional_usage = "PROFILE|DUMP_DIR",
    .run = RunPasses,
});

}  // namespace
}  // namespace systolic::cli
