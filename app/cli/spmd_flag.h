// `--spmd auto|on|off` of `compile`, `run` and `profile`: whether a sharded
// module goes through sharding propagation and the SPMD partitioner.
// auto (the default) partitions unless the module was already partitioned
// by XLA (SpmdPartitioner::AlreadyPartitionedReason); on always partitions
// a sharded module; off runs it as it is.
#pragma once

#include <optional>

#include "absl/status/statusor.h"
#include "app/cli/cli_args.h"

namespace systolic::cli {

// The module's use_spmd_partitioning for the flag: nullopt for auto.
absl::StatusOr<std::optional<bool>> SpmdFlag(const CliArgs& args);

// The flag's line in a command's --help.
OptionSpec SpmdFlagOption();

}  // namespace systolic::cli
