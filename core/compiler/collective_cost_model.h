// How the compiler asks "how long will this collective keep the interconnect
// busy?". The latency-hiding scheduler uses the answer to decide how much
// independent compute to put between a collective's start and its done.
// AlphaBetaCollectiveCostModel is the estimate from link figures alone; the
// device layer answers from a simulation of the slice's ICI links.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic {

class CollectiveCostModel {
 public:
  virtual ~CollectiveCostModel() = default;

  virtual std::string name() const = 0;
  // Seconds `collective` (synchronous, or the -start of a pair) takes when
  // the module runs on `devices`. Errors: groups the devices cannot form.
  virtual absl::StatusOr<double> EstimateSeconds(const HloInstruction& collective,
                                                 const SpmdDeviceCounts& devices) const = 0;
};

// One link between neighbouring devices. Defaults: a v4-class ICI link, one
// direction.
struct InterconnectParameters {
  double link_bytes_per_second = 45e9;
  double link_latency_seconds = 1e-6;
};

// The α-β estimate of ring algorithms over one group: n - 1 steps (all-gather,
// reduce-scatter, all-to-all), 2(n - 1) (all-reduce), each paying the link
// latency plus an n-th of the buffer at link bandwidth; a collective-permute
// sends its buffer once. The buffer is each device's all-gather result, or
// its operands for the others.
class AlphaBetaCollectiveCostModel : public CollectiveCostModel {
 public:
  explicit AlphaBetaCollectiveCostModel(InterconnectParameters parameters = {})
      : p_(parameters) {}

  std::string name() const override { return "alpha-beta"; }
  absl::StatusOr<double> EstimateSeconds(const HloInstruction& collective,
                                         const SpmdDeviceCounts& devices) const override;

  const InterconnectParameters& parameters() const { return p_; }

 private:
  InterconnectParameters p_;
};

}  // namespace systolic
