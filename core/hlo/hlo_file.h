// Loading HLO text files: one file may hold several modules separated by
// `// -----` lines; each is parsed with its real line numbers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"

namespace systolic {

// The whole file; a clear error if it cannot be read or is not text (the
// line, column and value of its first binary byte).
absl::StatusOr<std::string> ReadTextFile(const std::string& path);
// The whole file as it is, text or binary.
absl::StatusOr<std::string> ReadFileBytes(const std::string& path);

struct HloFileModule {
  int first_line = 1;  // where the module's text starts in the file
  absl::StatusOr<std::unique_ptr<HloModule>> module;
  // Values the file gives for the entry's parameters (an HloSnapshot's
  // arguments: what the program was run with); empty when it gives none.
  std::vector<Literal> arguments;
};

// Every module of the file, parsed (and verified when `verify`).
absl::StatusOr<std::vector<HloFileModule>> LoadHloFile(const std::string& path, bool verify);

// Prints `module`, parses the text back and compares the two structurally.
absl::Status CheckTextRoundTrip(const HloModule& module);

}  // namespace systolic
