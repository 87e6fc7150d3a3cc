#include "core/stablehlo/program_file.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_proto_file.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/status_macros.h"
#include "core/hlo/utf8.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic {
namespace {

// Enough of a file to recognise an HLO proto by its first fields.
constexpr size_t kProtoSniffBytes = 4096;

}  // namespace

ProgramFormat DetectProgramFormat(const std::string& path, absl::string_view head) {
  if (LooksLikeHloProto(head.substr(0, kProtoSniffBytes))) return ProgramFormat::kHloProto;
  // Files named as protos are read as protos, to say what is wrong with them.
  if (absl::EndsWith(path, ".pbtxt") || (absl::EndsWith(path, ".pb") && FirstBinaryByte(head) >= 0)) {
    return ProgramFormat::kHloProto;
  }
  if (absl::EndsWith(path, ".mlir")) return ProgramFormat::kStableHlo;
  if (absl::EndsWith(path, ".hlo") || absl::EndsWith(path, ".hlotxt")) {
    return ProgramFormat::kHloText;
  }
  bool looks_mlir = absl::StrContains(head, "func.func") || absl::StrContains(head, "stablehlo.");
  bool looks_hlo = absl::StrContains(head, "HloModule") || absl::StrContains(head, "ENTRY");
  return looks_mlir && !looks_hlo ? ProgramFormat::kStableHlo : ProgramFormat::kHloText;
}

absl::StatusOr<std::vector<HloFileModule>> LoadProgramFile(const std::string& path,
                                                           bool verify) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  const ProgramFormat format = DetectProgramFormat(path, bytes);
  if (format == ProgramFormat::kHloProto) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloFileModule module, ParseHloProto(bytes, path, verify));
    std::vector<HloFileModule> modules;
    modules.push_back(std::move(module));
    return modules;
  }
  if (format == ProgramFormat::kHloText) return LoadHloFile(path, verify);
  SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
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
