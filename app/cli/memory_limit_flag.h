// `--memory-limit SIZE` of the commands that evaluate programs (`eval`,
// `run`, `profile`): the host memory evaluation may use, as
// SYSTOLIC_MEMORY_LIMIT gives it (core/eval/evaluation_memory.h).
#pragma once

#include "absl/status/status.h"
#include "app/cli/cli_args.h"

namespace systolic::cli {

// Sets SYSTOLIC_MEMORY_LIMIT from the flag, when given; a size that does
// not parse is an error.
absl::Status ApplyMemoryLimitFlag(const CliArgs& args);

// The flag's line in a command's --help.
OptionSpec MemoryLimitFlagOption();

}  // namespace systolic::cli
