#include "app/cli/spmd_flag.h"

#include <string>

namespace systolic::cli {

absl::StatusOr<std::optional<bool>> SpmdFlag(const CliArgs& args) {
  const std::string mode = args.GetOr("spmd", "auto");
  if (mode == "auto") return std::optional<bool>();
  if (mode == "on") return std::optional<bool>(true);
  if (mode == "off") return std::optional<bool>(false);
  return absl::InvalidArgumentError("--spmd takes auto, on or off, not '" + mode + "'");
}

OptionSpec SpmdFlagOption() {
  return {"spmd", "auto|on|off",
          "partition a sharded module: auto (default) unless XLA already partitioned it, on "
          "always, off never"};
}

}  // namespace systolic::cli
