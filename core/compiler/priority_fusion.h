// Producer-consumer fusion in priority order, as XLA GPU's priority fusion:
// every fusible producer is a candidate; its priority is the time the cost
// model says fusing it into all of its consumers saves (the producer's own
// kernel and the round trip of its result through memory, minus any
// recomputation in the consumers). The best candidate fuses first, then the
// priorities around it are recomputed.
//
//  * elementwise chains with broadcasts, reshapes, transposes and slices
//    become loop fusions (kLoop);
//  * producers of a reduction fuse into its input (kInput);
//  * a dot or convolution absorbs its elementwise epilogue (bias, activation,
//    convert) into an output fusion (kOutput);
//  * a producer is duplicated into several consumers only when it is cheap
//    (never a reduction, dot, convolution or transcendental), and into at
//    most FusionOptions::max_consumers_to_duplicate of them;
//  * no kernel exceeds the cost model's on-chip memory budget or the size
//    limits; since a producer always fuses into all its consumers, no cycle
//    can form.
// Constants, iotas and broadcasts of scalars are finally copied into every
// kernel that reads them (they cost nothing to generate in place).
#pragma once

#include "core/compiler/cost_model.h"
#include "core/compiler/fusible.h"
#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class PriorityFusion : public HloPassInterface {
 public:
  // `cost_model` must outlive the pass.
  explicit PriorityFusion(const CostModel* cost_model, FusionOptions options = {})
      : cost_model_(cost_model), options_(options) {}

  absl::string_view name() const override { return "priority-fusion"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  const CostModel* cost_model_;
  FusionOptions options_;
};

}  // namespace systolic
