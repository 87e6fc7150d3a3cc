#include "app/cli/memory_limit_flag.h"

#include <cstdlib>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/hlo/host_memory.h"

namespace systolic::cli {

absl::Status ApplyMemoryLimitFlag(const CliArgs& args) {
  const std::optional<std::string> limit = args.Get("memory-limit");
  if (!limit) return absl::OkStatus();
  absl::StatusOr<int64_t> bytes = ParseByteSize(*limit);
  if (bytes.ok() && *bytes == 0) bytes = absl::InvalidArgumentError("a limit of 0 bytes");
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--memory-limit: ", bytes.status().message()));
  }
  // The environment carries it to every evaluator, the runtime's too.
  setenv("SYSTOLIC_MEMORY_LIMIT", std::to_string(*bytes).c_str(), /*overwrite=*/1);
  return absl::OkStatus();
}

OptionSpec MemoryLimitFlagOption() {
  return {"memory-limit", "SIZE",
          "host memory evaluating may use (8G, 512M; default: what the host has available); "
          "a program that needs more stops before it runs"};
}

}  // namespace systolic::cli
