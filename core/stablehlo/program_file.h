// Loads a program file of either kind the product reads: XLA HLO text
// (.hlo, .hlotxt, .txt) or StableHLO MLIR text (.mlir). Files may hold
// several programs separated by `// -----` lines.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_file.h"

namespace systolic {

enum class ProgramFormat { kHloText, kStableHlo };

// By extension; files with another extension are recognised by their text.
ProgramFormat DetectProgramFormat(const std::string& path, absl::string_view text);

absl::StatusOr<std::vector<HloFileModule>> LoadProgramFile(const std::string& path, bool verify);

}  // namespace systolic
