// How the compiler asks "how long will this take on the chip?". Fusion
// decisions and the studio's op profile use this interface; the device layer
// implements it with its own timing model, and RooflineCostModel is the
// simple stand-in until then.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/hlo_instruction.h"

namespace systolic {

// Estimated cost of one kernel.
struct CostEstimate {
  double seconds = 0;
  double flops = 0;           // arithmetic operations; a multiply-add counts 2
  double transcendentals = 0; // exp, log, tanh, ...
  double bytes_read = 0;      // from off-chip memory
  double bytes_written = 0;
};

// Instructions of one computation that would run as one kernel.
struct FusionCandidate {
  // Operands before users. May include fusion instructions (their fused
  // computations join the kernel).
  std::vector<const HloInstruction*> instructions;
  // The values the kernel writes to memory (the rest stay on chip).
  std::vector<const HloInstruction*> outputs;
};

class CostModel {
 public:
  virtual ~CostModel() = default;

  virtual std::string name() const = 0;
  // One instruction run as its own kernel (a fusion: its fused computation).
  // Instructions that run no kernel (parameters, tuples, bitcasts, ...) cost 0.
  virtual CostEstimate EstimateInstruction(const HloInstruction& instruction) const = 0;
  // The candidate run as one kernel.
  virtual CostEstimate EstimateFusion(const FusionCandidate& candidate) const = 0;
  // On-chip memory (VMEM) one kernel may use, and what the candidate needs:
  // fusion never creates a kernel whose working set exceeds the budget.
  virtual int64_t OnChipMemoryBytes() const = 0;
  virtual int64_t OnChipFootprint(const FusionCandidate& candidate) const = 0;
};

}  // namespace systolic
