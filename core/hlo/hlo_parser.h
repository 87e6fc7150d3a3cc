// Reader of XLA's HLO text format: modules (with or without the HloModule
// header), shapes, shardings and literals. Errors read
// `file:line:column: message`, then the offending line with a caret under the
// column.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

struct HloParseOptions {
  std::string filename = "<text>";
  // Line number of the text's first line in its file (for split files).
  int first_line = 1;
};

// Parses one module; the result is not verified.
absl::StatusOr<std::unique_ptr<HloModule>> ParseAndReturnUnverifiedModule(
    absl::string_view text, const HloParseOptions& options = {});
// Parses one module and runs the verifier on it.
absl::StatusOr<std::unique_ptr<HloModule>> ParseAndReturnVerifiedModule(
    absl::string_view text, const HloParseOptions& options = {});

absl::StatusOr<Shape> ParseShape(absl::string_view text);
absl::StatusOr<HloSharding> ParseSharding(absl::string_view text);  // "{devices=[2]0,1}"
absl::StatusOr<Literal> ParseLiteral(absl::string_view text, const Shape& shape);

// A file may hold several modules separated by lines `// -----`.
struct HloTextChunk {
  std::string text;
  int first_line = 1;  // line of `text`'s first line in the file
};
std::vector<HloTextChunk> SplitHloText(absl::string_view text);

}  // namespace systolic
