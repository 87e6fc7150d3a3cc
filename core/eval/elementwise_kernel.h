// Elementwise kernels: one function per (opcode, element types), chosen once
// per instruction, that runs a tight loop over dense buffers. The evaluator
// calls a kernel once over a whole array, the fused-elementwise evaluator
// once per cache-sized chunk, and scalar functions (reducers, comparators)
// with n = 1; all share the same semantics (element_ops.h).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/comparison.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_opcode.h"
#include "core/hlo/literal.h"
#include "core/hlo/primitive_type.h"

namespace systolic::eval {

// Run-time attributes of a kernel (reduce-precision's format).
struct ElementwiseParams {
  int exponent_bits = 0;
  int mantissa_bits = 0;
};

class ElementwiseKernel {
 public:
  // output[i] = f(inputs[0][i], inputs[1][i], ...) for i in [0, n). The
  // output may be one of the inputs (accumulation in place) but must not
  // overlap one partially.
  using Fn = void (*)(const void* const* inputs, void* output, int64_t n,
                      const ElementwiseParams& params);

  ElementwiseKernel() = default;
  ElementwiseKernel(Fn fn, int arity, PrimitiveType result_type, ElementwiseParams params = {})
      : fn_(fn), arity_(arity), result_type_(result_type), params_(params) {}

  void Run(const void* const* inputs, void* output, int64_t n) const {
    fn_(inputs, output, n, params_);
  }
  int arity() const { return arity_; }
  PrimitiveType result_type() const { return result_type_; }
  bool valid() const { return fn_ != nullptr; }

 private:
  Fn fn_ = nullptr;
  int arity_ = 0;
  PrimitiveType result_type_ = PRIMITIVE_TYPE_INVALID;
  ElementwiseParams params_;
};

// Opcodes MakeElementwiseKernel handles: unary and binary arithmetic, compare,
// select, clamp, convert, bitcast-convert between equal widths,
// reduce-precision, stochastic-convert, copy.
bool HasElementwiseKernel(const HloInstruction& instruction);

// The kernel of an elementwise instruction, from its operand and result
// element types. Select's predicate and clamp's bounds may be scalars: the
// caller broadcasts them (RunElementwise does).
absl::StatusOr<ElementwiseKernel> MakeElementwiseKernel(const HloInstruction& instruction);

// Building blocks, also used directly by the reducers and the collectives.
absl::StatusOr<ElementwiseKernel> MakeUnaryKernel(HloOpcode opcode, PrimitiveType operand_type);
absl::StatusOr<ElementwiseKernel> MakeBinaryKernel(HloOpcode opcode, PrimitiveType operand_type);
absl::StatusOr<ElementwiseKernel> MakeCompareKernel(PrimitiveType operand_type,
                                                    ComparisonDirection direction,
                                                    ComparisonType type);
absl::StatusOr<ElementwiseKernel> MakeSelectKernel(PrimitiveType type);
absl::StatusOr<ElementwiseKernel> MakeClampKernel(PrimitiveType type);
absl::StatusOr<ElementwiseKernel> MakeConvertKernel(PrimitiveType from, PrimitiveType to);
// Same bit width only; width changes are a reshaping of bytes (BitcastConvert).
absl::StatusOr<ElementwiseKernel> MakeBitcastConvertKernel(PrimitiveType from, PrimitiveType to);
absl::StatusOr<ElementwiseKernel> MakeReducePrecisionKernel(PrimitiveType type, int exponent_bits,
                                                            int mantissa_bits);
absl::StatusOr<ElementwiseKernel> MakeStochasticConvertKernel(PrimitiveType from,
                                                              PrimitiveType random,
                                                              PrimitiveType to);
// out = in (any type).
ElementwiseKernel MakeCopyKernel(PrimitiveType type);

// Elements processed per kernel call when running over large arrays: small
// enough that a chain of buffers stays in L2.
inline constexpr int64_t kElementwiseChunk = 4096;

// Runs `kernel` over `operands` into `out` (already shaped); operands with one
// element are broadcast when the output has more.
absl::Status RunElementwise(const ElementwiseKernel& kernel,
                            absl::Span<const Literal* const> operands, Literal* out);

}  // namespace systolic::eval
