#include "core/compiler/compiler.h"

#include <chrono>

#include "core/compiler/algebraic_simplifier.h"
#include "core/compiler/hlo_dce.h"
#include "core/compiler/pass_registry.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/compiler/spmd/spmd_pipeline.h"
#include "core/hlo/status_macros.h"

namespace systolic {

Compiler::Compiler(CompileOptions options) : options_(std::move(options)) {
  if (options_.cost_model == nullptr) {
    owned_cost_model_ = std::make_unique<RooflineCostModel>(options_.roofline);
    cost_model_ = owned_cost_model_.get();
  } else {
    cost_model_ = options_.cost_model;
  }
  if (options_.collective_cost_model == nullptr) {
    owned_collective_cost_model_ =
        std::make_unique<AlphaBetaCollectiveCostModel>(options_.interconnect);
    collective_cost_model_ = owned_collective_cost_model_.get();
  } else {
    collective_cost_model_ = options_.collective_cost_model;
  }
}

absl::StatusOr<std::unique_ptr<HloPassPipeline>> Compiler::BuildPipeline() const {
  PassContext context{cost_model_, collective_cost_model_, options_.fusion};
  auto pipeline = std::make_unique<HloPassPipeline>("default");
  auto add = [&](absl::string_view name) -> absl::Status {
    SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloPassInterface> pass, CreatePass(name, context));
    pipeline->AddPass(std::move(pass));
    return absl::OkStatus();
  };
  if (!options_.passes.empty()) {
    for (const std::string& name : options_.passes) SYSTOLIC_RETURN_IF_ERROR(add(name));
    return pipeline;
  }
  SYSTOLIC_RETURN_IF_ERROR(add("call-inliner"));
  // Dead code (inlined callees' leftovers, unused values) is removed before
  // anything spends time simplifying it.
  SYSTOLIC_RETURN_IF_ERROR(add("dce"));
  SYSTOLIC_RETURN_IF_ERROR(add("simplification"));
  // Fewer, larger collectives: one launch and one synchronisation each.
  SYSTOLIC_RETURN_IF_ERROR(add("all-reduce-combiner"));
  SYSTOLIC_RETURN_IF_ERROR(add("all-gather-combiner"));
  SYSTOLIC_RETURN_IF_ERROR(add("reduce-scatter-combiner"));
  SYSTOLIC_RETURN_IF_ERROR(add("layout-assignment"));
  AlgebraicSimplifierOptions layout_sensitive;
  layout_sensitive.is_layout_sensitive = true;
  pipeline->AddPass<AlgebraicSimplifier>(layout_sensitive);
  SYSTOLIC_RETURN_IF_ERROR(add("dce"));
  SYSTOLIC_RETURN_IF_ERROR(add("priority-fusion"));
  SYSTOLIC_RETURN_IF_ERROR(add("multi-output-fusion"));
  SYSTOLIC_RETURN_IF_ERROR(add("dce"));
  SYSTOLIC_RETURN_IF_ERROR(add("scheduler"));
  if (options_.latency_hiding) {
    SYSTOLIC_RETURN_IF_ERROR(add("async-collective-conversion"));
    SYSTOLIC_RETURN_IF_ERROR(add("latency-hiding-scheduler"));
  }
  return pipeline;
}

absl::StatusOr<CompilationResult> Compiler::Compile(std::unique_ptr<HloModule> module) const {
  const auto start = std::chrono::steady_clock::now();
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloPassPipeline> pipeline, BuildPipeline());
  CompilationResult result;
  pipeline->set_verify_between_passes(options_.verify_between_passes);
  if (options_.record_snapshots) {
    result.history.RecordInput(*module);
    pipeline->set_history(&result.history);
  }
  if (options_.passes.empty() && SpmdPartitioner::NeedsPartitioning(*module)) {
    // A module laid out across partitions first becomes the program each
    // partition runs; everything after works on that program.
    std::unique_ptr<HloPassPipeline> spmd = MakeSpmdPipeline();
    spmd->set_verify_between_passes(options_.verify_between_passes);
    if (options_.record_snapshots) spmd->set_history(&result.history);
    SYSTOLIC_RETURN_IF_ERROR(spmd->Run(module.get()).status());
  }
  SYSTOLIC_RETURN_IF_ERROR(pipeline->Run(module.get()).status());
  if (options_.assign_buffers) {
    SYSTOLIC_ASSIGN_OR_RETURN(BufferAssignment buffers, BufferAssignment::Run(*module));
    result.buffer_assignment = std::move(buffers);
  }
  result.module = std::move(module);
  result.compile_time_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count();
  return result;
}

}  // namespace systolic
