// Multi-output fusion, after priority fusion:
//  * sibling: two kernels that read the same value and iterate over the same
//    space (e.g. the sum and the sum of squares of one activation) become one
//    kernel with two outputs, so the value is read once;
//  * producer-consumer: a kernel whose result is needed elsewhere too is
//    fused with a consumer anyway and written out as a second output, so
//    the consumer does not read it back.
// Decided by the cost model (time saved > 0), within the same limits as
// priority fusion; a merge that would create a cycle (a path between the
// two kernels through other instructions) is never made.
#pragma once

#include "core/compiler/cost_model.h"
#include "core/compiler/fusible.h"
#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class MultiOutputFusion : public HloPassInterface {
 public:
  explicit MultiOutputFusion(const CostModel* cost_model, FusionOptions options = {})
      : cost_model_(cost_model), options_(options) {}

  absl::string_view name() const override { return "multi-output-fusion"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  // Siblings tried per shared operand, to bound the work on wide graphs.
  static constexpr int kMaxSiblingsPerValue = 8;
  // Kernels further apart than this in the program are not merged: the
  // merged kernel would stretch live ranges, and proving it makes no cycle
  // would search everything in between.
  static constexpr double kMaxDistance = 2048;

 private:
  const CostModel* cost_model_;
  FusionOptions options_;
};

}  // namespace systolic
