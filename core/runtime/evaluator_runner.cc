#include "core/runtime/evaluator_runner.h"

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/compiler/spmd/spmd_pipeline.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/status_macros.h"

namespace systolic::runtime {

absl::StatusOr<std::vector<Literal>> RunOnEvaluator(
    const HloModule& module, const std::vector<std::vector<const Literal*>>& arguments,
    int64_t num_replicas, int64_t num_partitions) {
  if (int64_t(arguments.size()) != num_replicas * num_partitions) {
    return absl::InternalError(absl::StrCat("evaluator: ", arguments.size(),
                                            " argument lists for ", num_replicas, " replicas x ",
                                            num_partitions, " partitions"));
  }
  std::vector<Literal> results;
  if (arguments.size() == 1) {
    HloEvaluator evaluator;
    SYSTOLIC_ASSIGN_OR_RETURN(Literal result, evaluator.Evaluate(module, arguments[0]));
    results.push_back(std::move(result));
    return results;
  }
  // The SPMD driver takes owned arguments.
  std::vector<std::vector<Literal>> owned(arguments.size());
  for (size_t d = 0; d < arguments.size(); ++d) {
    for (const Literal* argument : arguments[d]) owned[d].push_back(argument->Clone());
  }
  return EvaluateSpmd(module, owned, num_replicas, num_partitions);
}

absl::StatusOr<std::shared_ptr<const HloModule>> PartitionedProgram(
    std::shared_ptr<const HloModule> module, const CompileOptions& options) {
  if (!SpmdPartitioner::NeedsPartitioning(*module, options.num_partitions)) return module;
  std::unique_ptr<HloModule> partitioned = module->Clone();
  SYSTOLIC_RETURN_IF_ERROR(PartitionForSpmd(partitioned.get(), options.num_partitions).status());
  return std::shared_ptr<const HloModule>(std::move(partitioned));
}

}  // namespace systolic::runtime
