#include "core/compiler/spmd/partitioned_execution.h"

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/sharding_propagation.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/eval/shard_placement.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

HloSharding LayoutOf(const HloInstruction& instr) {
  return instr.has_sharding() ? instr.sharding() : HloSharding::Replicate();
}

// The signature of a module whose shardings are already propagated.
SpmdSignature SignatureOfPropagated(const HloModule& propagated, int64_t num_partitions) {
  const HloComputation& entry = *propagated.entry_computation();
  SpmdSignature signature;
  signature.partitions = num_partitions;
  for (const HloInstruction* p : entry.parameter_instructions()) {
    signature.parameter_shapes.push_back(p->shape());
    signature.parameter_shardings.push_back(LayoutOf(*p));
  }
  signature.result_shape = entry.root_instruction()->shape();
  signature.result_sharding = LayoutOf(*entry.root_instruction());
  return signature;
}

// `module` with its shardings propagated, when it needs partitioning.
absl::StatusOr<std::unique_ptr<HloModule>> PropagatedIfSharded(const HloModule& module,
                                                               int64_t num_partitions) {
  if (!SpmdPartitioner::NeedsPartitioning(module, num_partitions)) return nullptr;
  std::unique_ptr<HloModule> propagated = module.Clone();
  SYSTOLIC_RETURN_IF_ERROR(ShardingPropagation().Run(propagated.get()).status());
  return propagated;
}

}  // namespace

absl::StatusOr<std::optional<SpmdSignature>> SpmdSignatureOf(const HloModule& module,
                                                             int64_t num_partitions) {
  if (num_partitions == 0) num_partitions = module.num_partitions();
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> propagated,
                            PropagatedIfSharded(module, num_partitions));
  if (!propagated) return std::nullopt;
  return SignatureOfPropagated(*propagated, num_partitions);
}

absl::StatusOr<std::optional<SpmdProgram>> PartitionWithSignature(const HloModule& module,
                                                                  int64_t num_partitions) {
  if (num_partitions == 0) num_partitions = module.num_partitions();
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> propagated,
                            PropagatedIfSharded(module, num_partitions));
  if (!propagated) return std::nullopt;
  SpmdProgram program{SignatureOfPropagated(*propagated, num_partitions), std::move(propagated)};
  program.partitioned->set_num_partitions(num_partitions);
  SYSTOLIC_RETURN_IF_ERROR(SpmdPartitioner().Run(program.partitioned.get()).status());
  return program;
}

absl::StatusOr<std::vector<std::vector<Literal>>> ShardArguments(
    const SpmdSignature& signature, absl::Span<const Literal> arguments) {
  if (arguments.size() != signature.parameter_shapes.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the program takes ",
                                                   signature.parameter_shapes.size(),
                                                   " arguments, ", arguments.size(), " given"));
  }
  std::vector<std::vector<Literal>> shards(signature.partitions);
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].shape().dimensions() != signature.parameter_shapes[i].dimensions()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, " is ", arguments[i].shape().ToString(), ", parameter ", i,
                       " takes ", signature.parameter_shapes[i].ToString()));
    }
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> pieces,
                              SplitIntoShards(arguments[i], signature.parameter_shardings[i],
                                              signature.partitions));
    for (int64_t p = 0; p < signature.partitions; ++p) shards[p].push_back(std::move(pieces[p]));
  }
  return shards;
}

absl::StatusOr<std::vector<Literal>> GatherResults(const SpmdSignature& signature,
                                                   absl::Span<const Literal> device_results,
                                                   int64_t replicas) {
  std::vector<Literal> results;
  for (int64_t r = 0; r < replicas; ++r) {
    std::vector<const Literal*> pieces;
    for (int64_t p = 0; p < signature.partitions; ++p) {
      pieces.push_back(&device_results[r * signature.partitions + p]);
    }
    SYSTOLIC_ASSIGN_OR_RETURN(Literal whole, AssembleFromShards(pieces, signature.result_shape,
                                                                signature.result_sharding));
    results.push_back(std::move(whole));
  }
  return results;
}

absl::StatusOr<std::vector<Literal>> EvaluatePartitioned(const HloModule& partitioned,
                                                         const SpmdSignature& signature,
                                                         absl::Span<const Literal> arguments,
                                                         int64_t replicas,
                                                         const EvaluatorOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(auto shards, ShardArguments(signature, arguments));
  std::vector<std::vector<Literal>> per_device;
  for (int64_t r = 0; r < replicas; ++r) {
    for (const std::vector<Literal>& shard : shards) {
      std::vector<Literal> copy;
      for (const Literal& l : shard) copy.push_back(l.Clone());
      per_device.push_back(std::move(copy));
    }
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> results,
                            EvaluateSpmd(partitioned, per_device, replicas, signature.partitions,
                                         options));
  return GatherResults(signature, results, replicas);
}

}  // namespace systolic
