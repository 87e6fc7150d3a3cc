// The simplest honest cost model: a kernel takes as long as its arithmetic
// at peak FLOP/s or its memory traffic at peak bytes/s, whichever is longer,
// plus a fixed launch overhead. Stands in for the device's model.
#pragma once

#include <cstdint>
#include <string>

#include "core/compiler/cost_model.h"

namespace systolic {

struct RooflineParameters {
  // Defaults: one TensorCore of a v4-class chip.
  double matrix_flops_per_second = 137.6e12;    // 4 MXUs x 128x128 x 2 x 1.05 GHz
  double vector_flops_per_second = 4.3e12;      // 8x128 lanes x 4 ALUs x 1.05 GHz
  double transcendentals_per_second = 1.07e12;  // a quarter of the vector rate
  double memory_bytes_per_second = 1.2e12;      // HBM
  double kernel_overhead_seconds = 0.5e-6;      // issue and pipeline fill per kernel
  int64_t on_chip_memory_bytes = 16 << 20;      // VMEM
  // Each value a kernel streams in or out holds two tiles of this size
  // (double buffering) in on-chip memory, or the whole value if smaller.
  int64_t stream_tile_bytes = 512 << 10;
};

class RooflineCostModel : public CostModel {
 public:
  explicit RooflineCostModel(RooflineParameters parameters = {}) : p_(parameters) {}

  std::string name() const override { return "roofline"; }
  CostEstimate EstimateInstruction(const HloInstruction& instruction) const override;
  CostEstimate EstimateFusion(const FusionCandidate& candidate) const override;
  int64_t OnChipMemoryBytes() const override { return p_.on_chip_memory_bytes; }
  int64_t OnChipFootprint(const FusionCandidate& candidate) const override;

  const RooflineParameters& parameters() const { return p_; }

 private:
  RooflineParameters p_;
};

}  // namespace systolic
