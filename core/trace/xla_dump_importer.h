// Import of an XLA dump folder (`XLA_FLAGS=--xla_dump_to=DIR
// --xla_dump_hlo_pass_re=.*`): a profile whose programs are the folder's
// modules, each with XLA's own stages in order — the module before
// optimizations ("input"), after every dumped pass, and after
// optimizations — and its instructions linked across stages by name, so the
// graph, text-diff and stage views compare any two of XLA's passes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace/profile.h"

namespace systolic::trace {

struct XlaDumpStage {
  std::string file;       // the file's name in the folder
  std::string pass_name;  // the snapshot's pass name
  bool changed = false;
  int64_t instruction_count = 0;
};

struct XlaDumpModule {
  int64_t module_number = 0;
  std::string name;
  int64_t program_id = 0;           // the profile's program of this module
  std::vector<XlaDumpStage> stages;  // in order
  // Execution snapshots of this module (paths): its runnable inputs
  // (`systolic run FILE`).
  std::vector<std::string> execution_snapshots;
};

struct XlaDumpSkippedFile {
  std::string file;
  std::string reason;
};

struct XlaDumpImportReport {
  std::vector<XlaDumpModule> modules;       // by module number
  std::vector<XlaDumpSkippedFile> skipped;  // files that are not HLO text stages
  std::vector<std::string> errors;          // "FILE: what is wrong"; also in the notes
};

// Called after each file read with the files done and the files to read.
using XlaDumpProgress = std::function<void(int64_t done, int64_t total)>;

// True when `path` is a folder holding at least one XLA dump file.
bool IsXlaDumpFolder(const std::string& path);

// The folder's modules as a profile. A file that cannot be read or parsed is
// named in the report's errors and the rest still imports; a folder without
// any HLO text stage is an error.
absl::StatusOr<Profile> ImportXlaDumpFolder(const std::string& folder,
                                            XlaDumpImportReport* report = nullptr,
                                            const XlaDumpProgress& progress = {});

}  // namespace systolic::trace
