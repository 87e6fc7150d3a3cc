#include "core/stablehlo/program_file.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic {

ProgramFormat DetectProgramFormat(const std::string& path, absl::string_view text) {
  if (absl::EndsWith(path, ".mlir")) return ProgramFormat::kStableHlo;
  if (absl::EndsWith(path, ".hlo") || absl::EndsWith(path, ".hlotxt")) {
    return ProgramFormat::kHloText;
  }
  bool looks_mlir = absl::StrContains(text, "func.func") || absl::StrContains(text, "stablehlo.");
  bool looks_hlo = absl::StrContains(text, "HloModule") || absl::StrContains(text, "ENTRY");
  return looks_mlir && !looks_hlo ? ProgramFormat::kStableHlo : ProgramFormat::kHloText;
}

absl::StatusOr<std::vector<HloFileModule>> LoadProgramFile(const std::string& path,
                                                           bool verify) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  if (DetectProgramFormat(path, text) == ProgramFormat::kHloText) {
    return LoadHloFile(path, verify);
  }
  std::vector<HloFileModule> modules;
  for (HloTextChunk& chunk : SplitHloText(text)) {
    HloFileModule entry;
    entry.first_line = chunk.first_line;
    auto syntax = mlir::ParseModule(chunk.text, {path, chunk.first_line});
    if (!syntax.ok()) {
      entry.module = syntax.status();
    } else {
      stablehlo::ModuleImporter importer(*syntax, path);
      entry.module = importer.Import("");
      if (entry.module.ok() && verify) {
        absl::Status verified = VerifyHloModule(**entry.module);
        if (!verified.ok()) entry.module = verified;
      }
    }
    modules.push_back(std::move(entry));
  }
  if (modules.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": no program in the file"));
  return modules;
}

}  // namespace systolic
