// The compiler's CostModel from the device's own model, so that fusion
// decisions and simulated time agree: a kernel's MXU time is the analytic
// engine's for its GEMMs, its vector time the OpCostModel's, its memory time
// its HBM traffic at the chip's bandwidth; work is spread over all cores and
// MXUs, and loads overlap compute (double buffering), so the kernel takes
// the longest of the three plus what every kernel pays as the simulator runs
// it: its issue and the latency of its first load and last store.
#pragma once

#include <cstdint>
#include <string>

#include "core/compiler/cost_model.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/op_cost_model.h"

namespace systolic::device {

class DeviceCostModel : public CostModel {
 public:
  explicit DeviceCostModel(const ChipSpec& spec);

  std::string name() const override;
  CostEstimate EstimateInstruction(const HloInstruction& instruction) const override;
  CostEstimate EstimateFusion(const FusionCandidate& candidate) const override;
  // Half of VMEM: lowering keeps two kernels in flight.
  int64_t OnChipMemoryBytes() const override;
  int64_t OnChipFootprint(const FusionCandidate& candidate) const override;

 private:
  ChipSpec spec_;
  OpCostModel costs_;
};

}  // namespace systolic::device
