// What the name of one file of an XLA dump folder
// (`XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*`) says: which
// module it belongs to and which stage of that module's compilation it
// holds. Only the name is read; the content is the importer's business.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic::trace {

enum class XlaDumpFileKind {
  kBeforeOptimizations,  // module_0001.jit_f.before_optimizations.txt
  kAfterOptimizations,   // module_0001.jit_f.cpu_after_optimizations.txt
  kAfterPass,            // module_0001.jit_f.0003.simplify.after_algsimp.before_dce.txt
  kExecutionSnapshot,    // module_0001.jit_f.execution_0000.hlo_snapshot.pb
  kOther,                // anything else: .dot, .html, .pb, buffer assignments, ...
};

struct XlaDumpFileName {
  XlaDumpFileKind kind = XlaDumpFileKind::kOther;
  int64_t module_number = -1;  // NNNN of module_NNNN; -1 when the name has none
  // The module's name; for an execution snapshot the name's last dotted
  // component before `.hlo_snapshot.pb` is taken as the snapshot's own tag,
  // so group files by module_number, which is never ambiguous.
  std::string module_name;
  int64_t pass_number = -1;  // the order of a pass's file among the module's passes
  std::string pipeline;      // kAfterPass: "simplification", "spmd-simplify.1"
  std::string pass_name;     // kAfterPass: "algsimp"
  std::string next_pass;     // kAfterPass: what ran next; empty when not named
  std::string platform;      // kAfterOptimizations: "cpu", "sm_8.0_gpu"; may be empty
};

// Parses a file's name (a bare name or a path; only its last component is
// read). A name that is not an XLA dump file's is kOther.
XlaDumpFileName ParseXlaDumpFileName(absl::string_view file_name);

// "before optimizations", "after optimizations", "after pass", ...
absl::string_view XlaDumpFileKindName(XlaDumpFileKind kind);

}  // namespace systolic::trace
