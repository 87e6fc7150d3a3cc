// What may fuse with what, and the limits every fusion respects. Shared by
// priority fusion and multi-output fusion so both follow one set of rules.
#pragma once

#include <cstdint>
#include <vector>

#include "core/compiler/cost_model.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {

struct FusionOptions {
  // A kernel's instructions (fused computations counted whole).
  int64_t max_fused_instructions = 128;
  // Distinct values a kernel reads.
  int64_t max_fusion_parameters = 32;
  // A producer is copied into at most this many consumers (cheap producers
  // only: expensive ones are never duplicated).
  int64_t max_consumers_to_duplicate = 8;
};

// May join a fusion: elementwise ops, data movement (broadcast, reshape,
// transpose, slice, concatenate, pad, reverse, copy, iota, dynamic-slice),
// scalar constants, reductions (as the consumer), dot and convolution (as
// the head of an output fusion), and existing loop / input / output fusions.
bool IsFusible(const HloInstruction& instr);

// Generating it inside a kernel costs next to nothing: scalar constants,
// iota, broadcasts of scalars.
bool IsCheapToDuplicate(const HloInstruction& instr);

// Contains a reduction / a dot or convolution (for fusions: anywhere inside).
bool HasReduction(const HloInstruction& instr);
bool HasMatrixOp(const HloInstruction& instr);

// Costly enough that computing it twice is never worth saving a write:
// reductions, dots, convolutions and transcendental math.
bool IsExpensiveToDuplicate(const HloInstruction& instr);

// Instructions the kernel holds (a fusion counts its fused computation).
int64_t KernelInstructionCount(const HloInstruction& instr);

// The dimensions a kernel iterates over: a reduction's input, else the
// result (a multi-output fusion: its first output).
std::vector<int64_t> IterationSpace(const HloInstruction& instr);

// The computations fusion works on: the entry and the bodies of control
// flow (not reducers, comparators or fused computations).
std::vector<HloComputation*> FusibleComputations(const HloModule& module);

}  // namespace systolic
