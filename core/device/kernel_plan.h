// What one HLO instruction of a compiled module asks of a TensorCore, before
// tiling: the GEMMs for the MXUs (dots and convolutions, also inside
// fusions), the element-wise rest for the vector unit, and the bytes it reads
// from and writes to HBM. Lowering tiles this plan onto the chip.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/device/chip_spec.pb.h"
#include "core/device/systolic_mapping.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic::device {

enum class KernelKind {
  kNone,        // no compute: parameter, constant, tuple, get-tuple-element, bitcast
  kMatrix,      // one or more GEMMs, maybe with a vector epilogue
  kVector,      // element-wise work, reductions, data movement
  kUnmodelled,  // the model does not cover it (loops, collectives, custom calls)
};

// One GEMM: `batch` independent C[M,N] = A[M,K]·B[K,N].
struct GemmPlan {
  std::string name;  // the dot or convolution (a fused instruction's name in a fusion)
  int64_t batch = 1;
  GemmShape gemm;
  // HBM bytes per element of A[M,K] and B[K,N]. A convolution reads its
  // input once, not the M×K im2col matrix, so its A bytes are fractional.
  double lhs_element_bytes = 2;
  double rhs_element_bytes = 2;
  // bf16 passes per product: 1, or 3 / 6 for f32 dots asking HIGH / HIGHEST
  // precision (emulated with several bf16 passes, as a TPU does).
  int64_t passes = 1;
  // Both operands are 8-bit integers: the MXU's int8 rate where it has one.
  bool int8 = false;
  int64_t lhs_bytes() const { return int64_t(double(batch * gemm.m * gemm.k) * lhs_element_bytes); }
  int64_t rhs_bytes() const { return int64_t(double(batch * gemm.k * gemm.n) * rhs_element_bytes); }
};

// MACs per processing element per MXU step for `g` on `spec`: the int8
// rate for int8 operands, else 1.
int64_t MxuMacsPerStep(const GemmPlan& g, const ChipSpec& spec);
// The MXU's steps along K for `k` of the contraction of `g` on `spec`:
// bf16 passes multiply them, an int8 mode divides them.
int64_t MxuDepth(const GemmPlan& g, const ChipSpec& spec, int64_t k);

struct KernelPlan {
  KernelKind kind = KernelKind::kNone;
  std::vector<GemmPlan> gemms;
  // Vector work: `elements` values streamed, ops and transcendentals per
  // element (rounded up so that no work is lost).
  int64_t vector_elements = 0;
  int64_t ops_per_element = 0;
  int64_t transcendentals_per_element = 0;
  double vector_flops = 0;
  int64_t bytes_in = 0;   // read from HBM (a GEMM's operands included)
  int64_t bytes_out = 0;  // written to HBM
  std::string why_unmodelled;
};

// Never fails: what the model does not cover comes back kUnmodelled.
KernelPlan PlanKernel(const HloInstruction& instruction);

}  // namespace systolic::device
