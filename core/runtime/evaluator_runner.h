// Runs a module's participants on the reference evaluator: one device on the
// caller's thread without copying its arguments, several (replicas x
// partitions) through the evaluator's SPMD driver with its collectives.
// Shared by the `cpu` and `systolic` backends, as is the SPMD partitioning
// of what they run.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"
#include "core/runtime/compile_options.h"

namespace systolic::runtime {

absl::StatusOr<std::vector<Literal>> RunOnEvaluator(
    const HloModule& module, const std::vector<std::vector<const Literal*>>& arguments,
    int64_t num_replicas, int64_t num_partitions);

// `module` partitioned for `options.num_partitions` when its sharding
// annotations lay it out across partitions (see
// Backend::ProgramForParticipants); otherwise `module` itself. Errors name
// the instruction and its line.
absl::StatusOr<std::shared_ptr<const HloModule>> PartitionedProgram(
    std::shared_ptr<const HloModule> module, const CompileOptions& options);

}  // namespace systolic::runtime
