// Runs a module's participants on the reference evaluator: one device on the
// caller's thread without copying its arguments, several (replicas x
// partitions) through the evaluator's SPMD driver with its collectives.
// Shared by the `cpu` and `systolic` backends.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"

namespace systolic::runtime {

absl::StatusOr<std::vector<Literal>> RunOnEvaluator(
    const HloModule& module, const std::vector<std::vector<const Literal*>>& arguments,
    int64_t num_replicas, int64_t num_partitions);

}  // namespace systolic::runtime
