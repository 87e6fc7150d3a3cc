#include "core/runtime/evaluator_runner.h"

#include "absl/strings/str_cat.h"
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

}  // namespace systolic::runtime
