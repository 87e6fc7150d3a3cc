#include "core/trace/xla_dump_importer.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <system_error>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "core/trace/stage_name_linker.h"
#include "core/trace/xla_dump_file_name.h"

namespace systolic::trace {
namespace {

namespace fs = std::filesystem;

struct StageFile {
  std::string file;
  XlaDumpFileName name;
};

struct ModuleFiles {
  std::string name;
  std::vector<StageFile> stages;
  std::vector<std::string> snapshots;
};

// Before optimizations first, then the passes by their number, then after
// optimizations (several platforms: by name).
std::tuple<int, int64_t, std::string> StageOrder(const StageFile& stage) {
  switch (stage.name.kind) {
    case XlaDumpFileKind::kBeforeOptimizations:
      return {0, 0, stage.file};
    case XlaDumpFileKind::kAfterPass:
      return {1, stage.name.pass_number, stage.file};
    default:
      return {2, 0, stage.file};
  }
}

std::string StagePassName(const XlaDumpFileName& name) {
  switch (name.kind) {
    case XlaDumpFileKind::kBeforeOptimizations:
      return "input";
    case XlaDumpFileKind::kAfterPass:
      return absl::StrCat(name.pipeline, "/", name.pass_name);
    default:
      return name.platform.empty() ? "after_optimizations"
                                   : absl::StrCat(name.platform, "_after_optimizations");
  }
}

absl::StatusOr<std::vector<std::string>> ListFiles(const std::string& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) {
    return absl::NotFoundError(absl::StrCat(folder, ": not a folder"));
  }
  std::vector<std::string> files;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file(error)) files.push_back(it->path().filename().string());
  }
  if (error) return absl::InternalError(absl::StrCat(folder, ": ", error.message()));
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

bool IsXlaDumpFolder(const std::string& path) {
  absl::StatusOr<std::vector<std::string>> files = ListFiles(path);
  if (!files.ok()) return false;
  return std::any_of(files->begin(), files->end(), [](const std::string& file) {
    return ParseXlaDumpFileName(file).module_number >= 0;
  });
}

absl::StatusOr<Profile> ImportXlaDumpFolder(const std::string& folder,
                                            XlaDumpImportReport* report,
                                            const XlaDumpProgress& progress) {
  XlaDumpImportReport local_report;
  if (report == nullptr) report = &local_report;
  *report = {};
  absl::StatusOr<std::vector<std::string>> files = ListFiles(folder);
  if (!files.ok()) return files.status();

  std::map<int64_t, ModuleFiles> modules;
  int64_t stage_files = 0;
  for (const std::string& file : *files) {
    XlaDumpFileName name = ParseXlaDumpFileName(file);
    if (name.module_number < 0) {
      report->skipped.push_back({file, "not a module's file"});
      continue;
    }
    ModuleFiles& module = modules[name.module_number];
    switch (name.kind) {
      case XlaDumpFileKind::kExecutionSnapshot:
        module.snapshots.push_back((fs::path(folder) / file).string());
        break;
      case XlaDumpFileKind::kOther:
        report->skipped.push_back({file, "not an HLO text stage"});
        break;
      default:
        // The stage files name the module without ambiguity.
        if (module.name.empty() || name.kind == XlaDumpFileKind::kBeforeOptimizations) {
          module.name = name.module_name;
        }
        module.stages.push_back({file, std::move(name)});
        ++stage_files;
    }
  }
  if (stage_files == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        folder, ": no HLO text of an XLA dump (module_NNNN.<module>.before_optimizations.txt, "
                "...after_optimizations.txt or per-pass files)"));
  }

  Profile profile;
  profile.info.producer = "xla dump import";
  profile.info.title = fs::path(folder).lexically_normal().filename().string();
  if (profile.info.title.empty()) profile.info.title = fs::path(folder).parent_path().filename().string();
  int64_t files_done = 0;
  for (auto& [number, files_of_module] : modules) {
    if (files_of_module.stages.empty()) {
      // Only artifacts or snapshots of this module: nothing to draw, but a
      // snapshot is still a program the user can run.
      for (const std::string& snapshot : files_of_module.snapshots) {
        report->skipped.push_back({fs::path(snapshot).filename().string(),
                                   "an execution snapshot of a module without HLO text here "
                                   "(run it with `systolic run`)"});
      }
      continue;
    }
    std::stable_sort(files_of_module.stages.begin(), files_of_module.stages.end(),
                     [](const StageFile& a, const StageFile& b) {
                       return StageOrder(a) < StageOrder(b);
                     });
    XlaDumpModule summary;
    summary.module_number = number;
    summary.name = files_of_module.name;
    summary.execution_snapshots = files_of_module.snapshots;

    ProgramRecord program;
    program.id = number;
    program.name = files_of_module.name;
    StageNameLinker linker;
    std::unique_ptr<HloModule> last_module;
    for (const StageFile& stage : files_of_module.stages) {
      const std::string path = (fs::path(folder) / stage.file).string();
      absl::StatusOr<std::string> text = ReadTextFile(path);
      absl::StatusOr<std::unique_ptr<HloModule>> module =
          text.ok() ? ParseAndReturnUnverifiedModule(*text, {.filename = path})
                    : absl::StatusOr<std::unique_ptr<HloModule>>(text.status());
      if (progress) progress(++files_done, stage_files);
      if (!module.ok()) {
        report->errors.push_back(std::string(module.status().message()));
        continue;
      }
      ModuleSnapshot snapshot;
      snapshot.pass_name = StagePassName(stage.name);
      snapshot.changed = !program.snapshots.empty() && program.snapshots.back().hlo_text != *text;
      snapshot.hlo_text = std::move(*text);
      snapshot.instruction_count = (*module)->instruction_count();
      snapshot.computation_count = (*module)->computation_count();
      snapshot.provenance = linker.Link(**module);
      summary.stages.push_back(
          {stage.file, snapshot.pass_name, snapshot.changed, snapshot.instruction_count});
      program.snapshots.push_back(std::move(snapshot));
      last_module = std::move(*module);
    }
    if (program.snapshots.empty()) {
      report->errors.push_back(
          absl::StrFormat("module_%04d.%s: no stage could be read", number, files_of_module.name));
      continue;
    }
    program.shardings = CollectShardings(*last_module);
    summary.program_id = program.id;
    for (const std::string& snapshot : files_of_module.snapshots) {
      profile.info.notes.push_back(absl::StrCat(program.name, ": execution snapshot ", snapshot,
                                                " (run it with `systolic run`)"));
    }
    profile.programs.push_back(std::move(program));
    report->modules.push_back(std::move(summary));
  }
  for (const std::string& error : report->errors) profile.info.notes.push_back(error);
  if (profile.programs.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(folder, ": no HLO stage could be read: ", report->errors.front()));
  }
  return profile;
}

}  // namespace systolic::trace
