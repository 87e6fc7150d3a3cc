// Runs a module as N replicas x M partitions: one evaluator per device, each
// on its own thread, meeting at a shared rendezvous for every collective
// (replica-id / partition-id give each its identity). Values are exact: the
// collectives combine contributions in XLA's group order.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"

namespace systolic {

struct SpmdDeviceCounts {
  int64_t replicas = 1;
  int64_t partitions = 1;
};

// The module's replica_count x num_partitions, raised to what its
// collectives need: the largest id their replica_groups and
// source_target_pairs name, and the shard count of all-gathers and
// reduce-scatters without groups. (Modules taken from pass tests keep these
// counts in their harness, not in the header.)
SpmdDeviceCounts RequiredDeviceCounts(const HloModule& module);

// args_per_device[d] are the arguments of device d = replica * partitions +
// partition; a single entry is given to every device. Returns each device's
// result in device order, or the error of the first device that failed
// (naming it when there are several).
absl::StatusOr<std::vector<Literal>> EvaluateSpmd(const HloModule& module,
                                                  absl::Span<const std::vector<Literal>> args_per_device,
                                                  int64_t replicas, int64_t partitions,
                                                  const EvaluatorOptions& options = {});

}  // namespace systolic
