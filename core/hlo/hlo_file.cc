#include "core/hlo/hlo_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/hlo/hlo_print_options.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_structural_equal.h"
#include "core/hlo/status_macros.h"
#include "core/hlo/utf8.h"

namespace systolic {

namespace {

// A binary file (a profile, an archive, an image opened by mistake) is named
// as such at its first binary byte, rather than parsed into an error that
// quotes it.
absl::StatusOr<std::string> CheckIsText(const std::string& path, std::string text) {
  const int64_t at = FirstBinaryByte(text);
  if (at < 0) return text;
  const absl::string_view before(text.data(), size_t(at));
  const int64_t line = 1 + int64_t(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const int64_t column = at - (line_start == absl::string_view::npos ? 0 : int64_t(line_start) + 1) + 1;
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s:%d:%d: not a text file: byte %d is 0x%02X, which text never holds (programs are HLO or "
      "StableHLO text)",
      path, line, column, at, static_cast<unsigned char>(text[size_t(at)])));
}

}  // namespace

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::string text, ReadFileBytes(path));
  return CheckIsText(path, std::move(text));
}

absl::StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  // Read straight into the string (a stringstream copied a large module's
  // text twice).
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size > 0) {
    text.resize(size_t(size));
    in.seekg(0, std::ios::beg);
    in.read(text.data(), size);
    if (in.gcount() != size) return absl::DataLossError(absl::StrCat(path, ": read error"));
    return text;
  }
  // Not seekable (a pipe): read it as a stream.
  in.clear();
  in.seekg(0, std::ios::beg);
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
  // Printing is deterministic across the round trip: the same text but for
  // large constants, whose values are compared bit for bit instead of being
  // printed a third time (that was a third of `systolic parse` on a module
  // with large weights). A NaN's payload is not printed, so NaNs compare
  // equal (Literal's ==), as in the structural comparison above.
  const HloPrintOptions elided = HloPrintOptions::WithoutLargeConstants();
  if (ModuleText(**reparsed, elided) != ModuleText(module, elided)) {
    return absl::InternalError("printing is not deterministic across a round trip");
  }
  // Instruction names may repeat across computations: a constant is known
  // by its computation's name and its own.
  using ConstantKey = std::pair<absl::string_view, absl::string_view>;
  absl::flat_hash_map<ConstantKey, const HloInstruction*> reparsed_constants;
  for (const HloComputation* c : (*reparsed)->computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->has_literal()) reparsed_constants[ConstantKey(c->name(), instr->name())] = instr;
    }
  }
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (!instr->has_literal()) continue;
      auto it = reparsed_constants.find(ConstantKey(c->name(), instr->name()));
      if (it == reparsed_constants.end() || !(instr->literal() == it->second->literal())) {
        return absl::InternalError(absl::StrCat("the values of %", instr->name(), " in ",
                                                c->name(), " changed across a round trip"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace systolic
