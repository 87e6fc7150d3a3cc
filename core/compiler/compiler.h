// The compiler's front door: runs the pass pipeline on a module, recording a
// snapshot after every pass, then assigns buffers.
//
// The default pipeline:
//   sharding-propagation, spmd-partitioner (a module laid out across
//     partitions only)
//   call-inliner
//   simplification (to a fixed point): algsimp, constant-folding,
//     tuple-simplifier, cse, dce
//   layout-assignment
//   algsimp (layout sensitive: drops copies that became no-ops), dce
//   priority-fusion, multi-output-fusion, dce
//   scheduler
//   async-collective-conversion, latency-hiding-scheduler (unless
//     CompileOptions::latency_hiding is off)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/buffer_assignment.h"
#include "core/compiler/collective_cost_model.h"
#include "core/compiler/compilation_history.h"
#include "core/compiler/cost_model.h"
#include "core/compiler/fusible.h"
#include "core/compiler/hlo_pass_pipeline.h"
#include "core/compiler/roofline_cost_model.h"

namespace systolic {

struct CompileOptions {
  // Passes to run, by name (see KnownPassNames), instead of the default
  // pipeline.
  std::vector<std::string> passes;
  bool verify_between_passes = HloPassPipeline::kVerifyByDefault;
  // The chip preset to compile for. Recorded; the roofline cost model is
  // used until the device layer provides one per chip.
  std::string chip;
  // Fusion decisions ask this model; the roofline model below when null.
  const CostModel* cost_model = nullptr;
  RooflineParameters roofline;
  FusionOptions fusion;
  // Split collectives into start/done pairs and schedule compute between
  // them (off: collectives stay synchronous, for comparison).
  bool latency_hiding = true;
  // Collective times the latency-hiding scheduler plans with; the α-β
  // estimate from `interconnect` when null.
  const CollectiveCostModel* collective_cost_model = nullptr;
  InterconnectParameters interconnect;
  bool record_snapshots = true;
  bool assign_buffers = true;
};

struct CompilationResult {
  std::unique_ptr<HloModule> module;
  CompilationHistory history;
  std::optional<BufferAssignment> buffer_assignment;
  int64_t compile_time_ns = 0;
};

class Compiler {
 public:
  explicit Compiler(CompileOptions options = {});

  absl::StatusOr<std::unique_ptr<HloPassPipeline>> BuildPipeline() const;
  absl::StatusOr<CompilationResult> Compile(std::unique_ptr<HloModule> module) const;

  const CostModel& cost_model() const { return *cost_model_; }
  const CompileOptions& options() const { return options_; }

 private:
  CompileOptions options_;
  std::unique_ptr<CostModel> owned_cost_model_;
  const CostModel* cost_model_;
  std::unique_ptr<CollectiveCostModel> owned_collective_cost_model_;
  const CollectiveCostModel* collective_cost_model_;
};

}  // namespace systolic
