// The work and memory traffic of instructions and kernels, independent of
// the hardware: FLOPs (vector and matrix), transcendentals, bytes in and out.
// Cost models turn these into time.
#pragma once

#include <vector>

#include "core/compiler/cost_model.h"

namespace systolic {

struct InstructionWork {
  double flops = 0;            // elementwise arithmetic and reductions (vector unit)
  double matrix_flops = 0;     // dot and convolution (matrix unit)
  double transcendentals = 0;
};

// The work of one instruction; a fusion sums its fused computation.
InstructionWork WorkOf(const HloInstruction& instruction);

// True for instructions that run no kernel of their own: parameters,
// constants, tuples, get-tuple-element, bitcasts, control flow (their bodies
// are kernels), tokens, and the -done of an asynchronous collective.
bool RunsNoKernel(const HloInstruction& instruction);

// Memory traffic of a kernel.
struct KernelTraffic {
  std::vector<const HloInstruction*> inputs;  // distinct values read from outside
  double bytes_read = 0;
  double bytes_written = 0;
};

// A value read only through slices costs the sliced bytes, otherwise all of it.
KernelTraffic TrafficOf(const FusionCandidate& candidate);
KernelTraffic TrafficOf(const HloInstruction& instruction);

// The candidate's summed work.
InstructionWork WorkOf(const FusionCandidate& candidate);

}  // namespace systolic
