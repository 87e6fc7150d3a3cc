// Running a partitioned program the way a user thinks of it, on whole
// arrays: the entry's signature (each parameter's and the result's whole
// shape and sharding, read from the module before partitioning, shardings
// propagated), each argument split into the partitions' shards by its
// sharding, every device run, and each replica's result put back together.
// A sharded run and an unpartitioned evaluation of the same module can then
// be compared directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/literal.h"

namespace systolic {

struct SpmdSignature {
  int64_t partitions = 1;
  std::vector<Shape> parameter_shapes;
  std::vector<HloSharding> parameter_shardings;
  Shape result_shape;
  HloSharding result_sharding;  // a tuple sharding for a tuple result
};

// The signature of `module` before partitioning into `num_partitions` (0:
// its own num_partitions), or nullopt when it needs no partitioning.
absl::StatusOr<std::optional<SpmdSignature>> SpmdSignatureOf(const HloModule& module,
                                                             int64_t num_partitions = 0);

// A module's partitioned program with the signature it was partitioned
// from: what runs, and how whole values map onto it.
struct SpmdProgram {
  SpmdSignature signature;
  std::unique_ptr<HloModule> partitioned;
};

// Propagates `module`'s shardings once, reads the signature and partitions
// (0 partitions: the module's own count); nullopt when it needs no
// partitioning.
absl::StatusOr<std::optional<SpmdProgram>> PartitionWithSignature(const HloModule& module,
                                                                  int64_t num_partitions = 0);

// Per partition, the shards of `arguments` (whole values, one per
// parameter): shards[p][i] is partition p's piece of argument i.
absl::StatusOr<std::vector<std::vector<Literal>>> ShardArguments(
    const SpmdSignature& signature, absl::Span<const Literal> arguments);

// Each replica's whole result from every device's result (device d =
// replica * partitions + partition).
absl::StatusOr<std::vector<Literal>> GatherResults(const SpmdSignature& signature,
                                                   absl::Span<const Literal> device_results,
                                                   int64_t replicas);

// Evaluates `partitioned` on every device of `replicas` x the signature's
// partitions with the same whole `arguments` on each replica; returns each
// replica's whole result.
absl::StatusOr<std::vector<Literal>> EvaluatePartitioned(const HloModule& partitioned,
                                                         const SpmdSignature& signature,
                                                         absl::Span<const Literal> arguments,
                                                         int64_t replicas = 1,
                                                         const EvaluatorOptions& options = {});

}  // namespace systolic
