// Runs StableHLO interpreter-style test files: each `// -----` chunk is a
// case whose function is evaluated and whose `check.*` assertions are held
// against the reference evaluator's values. Collective cases driven by
// `interpreter.run_parallel` run their program on replicas x partitions.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/literal.h"

namespace systolic::stablehlo {

struct CheckCaseResult {
  int first_line = 1;  // where the case starts in its file
  std::string name;    // the function run (or module name)
  bool passed = false;
  int checks = 0;       // assertions evaluated
  std::string message;  // on failure: what and where
};

// One case (the text of one chunk).
CheckCaseResult RunCheckCase(absl::string_view text, const std::string& filename, int first_line);

// Every case of a file; an error only when the file cannot be read.
absl::StatusOr<std::vector<CheckCaseResult>> RunCheckFile(const std::string& path);

// Compares `actual` with `expected` element by element. Returns "" when they
// agree, else a description of the first mismatch.
std::string CompareExact(const Literal& actual, const Literal& expected);
std::string CompareAlmostEqual(const Literal& actual, const Literal& expected, double tolerance);
std::string CompareUlps(const Literal& actual, const Literal& expected, int64_t min_ulp,
                        int64_t max_ulp);

}  // namespace systolic::stablehlo
