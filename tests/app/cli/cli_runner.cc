#include "tests/app/cli/cli_runner.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace systolic::testing {

CliResult RunCli(const std::string& args, bool with_stderr) {
  CliResult result;
  const std::string command =
      absl::StrCat(SYSTOLIC_CLI, " ", args, with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string SampleHlo(const std::string& name) {
  return std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name;
}

std::string CliTempPath(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "systolic_cli_tests";
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / name);
  return (dir / name).string();
}

}  // namespace systolic::testing
