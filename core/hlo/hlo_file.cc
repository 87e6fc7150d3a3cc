#include "core/hlo/hlo_file.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_structural_equal.h"
#include "core/hlo/status_macros.h"

namespace systolic {

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read error"));
  return buffer.str();
}

absl::StatusOr<std::vector<HloFileModule>> LoadHloFile(const std::string& path, bool verify) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  std::vector<HloFileModule> modules;
  for (HloTextChunk& chunk : SplitHloText(text)) {
    HloParseOptions options;
    options.filename = path;
    options.first_line = chunk.first_line;
    HloFileModule entry;
    entry.first_line = chunk.first_line;
    entry.module = verify ? ParseAndReturnVerifiedModule(chunk.text, options)
                          : ParseAndReturnUnverifiedModule(chunk.text, options);
    modules.push_back(std::move(entry));
  }
  if (modules.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no HLO module in the file"));
  }
  return modules;
}

absl::Status CheckTextRoundTrip(const HloModule& module) {
  std::string text = module.ToString();
  HloParseOptions options;
  options.filename = absl::StrCat("<printed ", module.name(), ">");
  auto reparsed = ParseAndReturnUnverifiedModule(text, options);
  if (!reparsed.ok()) {
    return absl::InternalError(
        absl::StrCat("the printed module does not parse back: ", reparsed.status().message()));
  }
  absl::Status same = CompareModulesStructurally(module, **reparsed);
  if (!same.ok()) {
    return absl::InternalError(absl::StrCat("round trip changed the module: ", same.message()));
  }
  if ((*reparsed)->ToString() != text) {
    return absl::InternalError("printing is not deterministic across a round trip");
  }
  return absl::OkStatus();
}

}  // namespace systolic
