// Lowers a walked lazy graph to an HLO module: device data become
// parameters (in first-use order), each op node's prototype is cloned with
// the lowered operands and its metadata, scalar computations are built once
// per module, and the root is a tuple of the roots' values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/lazy/graph_walk.h"

namespace systolic::lazy {

struct LoweringOptions {
  std::string module_name = "SyncTensorsGraph";
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
};

absl::StatusOr<std::unique_ptr<HloModule>> LowerGraph(const GraphWalk& walk,
                                                      const LoweringOptions& options);

}  // namespace systolic::lazy
