#include "core/compiler/pass_registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/compiler/algebraic_simplifier.h"
#include "core/compiler/async_collective_conversion.h"
#include "core/compiler/call_inliner.h"
#include "core/compiler/collective_combiner.h"
#include "core/compiler/hlo_constant_folding.h"
#include "core/compiler/hlo_cse.h"
#include "core/compiler/hlo_dce.h"
#include "core/compiler/hlo_memory_scheduler.h"
#include "core/compiler/hlo_pass_fix.h"
#include "core/compiler/latency_hiding_scheduler.h"
#include "core/compiler/layout_assignment.h"
#include "core/compiler/multi_output_fusion.h"
#include "core/compiler/priority_fusion.h"
#include "core/compiler/spmd/sharding_propagation.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/compiler/tuple_simplifier.h"

namespace systolic {

std::vector<std::string> KnownPassNames() {
  return {"dce",       "cse",          "constant-folding", "tuple-simplifier",    "call-inliner",
          "algsimp",   "simplification", "all-reduce-combiner", "all-gather-combiner",
          "reduce-scatter-combiner", "layout-assignment", "priority-fusion",
          "multi-output-fusion", "scheduler", "async-collective-conversion",
          "latency-hiding-scheduler", "spmd-partitioner", "sharding-propagation"};
}

absl::StatusOr<std::unique_ptr<HloPassInterface>> CreatePass(absl::string_view name,
                                                             const PassContext& context) {
  if (name == "dce") return std::make_unique<HloDCE>();
  if (name == "sharding-propagation") return std::make_unique<ShardingPropagation>();
  if (name == "cse") return std::make_unique<HloCSE>();
  if (name == "constant-folding") return std::make_unique<HloConstantFolding>();
  if (name == "tuple-simplifier") return std::make_unique<TupleSimplifier>();
  if (name == "call-inliner") return std::make_unique<CallInliner>();
  if (name == "algsimp") return std::make_unique<AlgebraicSimplifier>();
  if (name == "layout-assignment") return std::make_unique<LayoutAssignment>();
  if (name == "scheduler") return std::make_unique<HloMemoryScheduler>();
  if (name == "spmd-partitioner") return std::make_unique<SpmdPartitioner>();
  if (name == "async-collective-conversion") return std::make_unique<AsyncCollectiveConversion>();
  if (name == "all-reduce-combiner") return std::make_unique<CollectiveCombiner>(HloOpcode::kAllReduce);
  if (name == "all-gather-combiner") return std::make_unique<CollectiveCombiner>(HloOpcode::kAllGather);
  if (name == "reduce-scatter-combiner") {
    return std::make_unique<CollectiveCombiner>(HloOpcode::kReduceScatter);
  }
  if (name == "simplification") {
    auto fix = std::make_unique<HloPassFix<HloPassPipeline>>("simplification");
    fix->AddPass<AlgebraicSimplifier>();
    fix->AddPass<HloConstantFolding>();
    fix->AddPass<TupleSimplifier>();
    fix->AddPass<HloCSE>();
    fix->AddPass<HloDCE>();
    return fix;
  }
  if (name == "priority-fusion" || name == "multi-output-fusion" ||
      name == "latency-hiding-scheduler") {
    if (context.cost_model == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("pass ", name, " needs a cost model"));
    }
    if (name == "priority-fusion") {
      return std::make_unique<PriorityFusion>(context.cost_model, context.fusion);
    }
    if (name == "multi-output-fusion") {
      return std::make_unique<MultiOutputFusion>(context.cost_model, context.fusion);
    }
    return std::make_unique<LatencyHidingScheduler>(context.cost_model,
                                                    context.collective_cost_model);
  }
  return absl::NotFoundError(absl::StrCat("no pass named \"", name, "\"; known passes: ",
                                          absl::StrJoin(KnownPassNames(), ", ")));
}

}  // namespace systolic
