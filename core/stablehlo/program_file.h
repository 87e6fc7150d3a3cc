// Loads a program file of any kind the product reads: XLA HLO text
// (.hlo, .hlotxt, .txt), StableHLO MLIR text (.mlir), or XLA's HLO protos
// (HloModuleProto, HloProto, HloSnapshot; binary or text format), told by
// content. Text files may hold several programs separated by `// -----`
// lines; a snapshot's module comes with its arguments.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_file.h"

namespace systolic {

enum class ProgramFormat { kHloText, kStableHlo, kHloProto };

// HLO protos by their content (`head`: the file's first bytes, or all of
// it), text formats by extension and then by their text.
ProgramFormat DetectProgramFormat(const std::string& path, absl::string_view head);

absl::StatusOr<std::vector<HloFileModule>> LoadProgramFile(const std::string& path, bool verify);

}  // namespace systolic
