// Runs the `systolic` CLI as a user does, for the CLI's tests.
#pragma once

#include <string>

namespace systolic::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
};

// Runs `systolic <args>`; the output is stdout, with stderr appended unless
// `with_stderr` is false (then it is dropped, for output parsed as JSON).
CliResult RunCli(const std::string& args, bool with_stderr = true);

// A sample program bundled with the project: samples/hlo/<name>.
std::string SampleHlo(const std::string& name);

// A fresh path <tmp>/systolic_cli_tests/<name> (removed, with anything in it,
// if it existed).
std::string CliTempPath(const std::string& name);

}  // namespace systolic::testing
