// `systolic check FILE...`: runs StableHLO interpreter-style test files.
#include "app/cli/cli_command.h"
#include "core/stablehlo/check_runner.h"

namespace systolic::cli {
namespace {

int RunCheck(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().empty()) {
    err << "systolic check: give at least one .mlir file\n";
    return 2;
  }
  int passed = 0, failed = 0;
  for (const std::string& path : args.positional()) {
    auto results = stablehlo::RunCheckFile(path);
    if (!results.ok()) {
      out << "FAIL " << path << ": " << results.status().message() << "\n";
      ++failed;
      continue;
    }
    for (const stablehlo::CheckCaseResult& r : *results) {
      out << (r.passed ? "PASS " : "FAIL ") << path << ":" << r.first_line << " " << r.name;
      if (r.passed) {
        out << " (" << r.checks << " check" << (r.checks == 1 ? "" : "s") << ")\n";
      } else {
        out << ": " << r.message << "\n";
      }
      (r.passed ? passed : failed) += 1;
    }
  }
  out << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

const CommandRegistration kRegistration({
    .name = "check",
    .summary = "run StableHLO test files: every case's check.* assertions against the evaluator",
    .options = {},
    .positional_usage = "FILE...",
    .run = RunCheck,
});

}  // namespace
}  // namespace systolic::cli
