// dot_general on the host, with Eigen matrix products for the GEMMs. Operands are converted to the result's accumulation type first
// (f32 for f32 and narrower floats, f64, c64, c128; 64-bit wrapping integers
// for integer and pred results), multiplied, and rounded to the result type
// once. Operand precision is ignored: the reference is exact in its
// accumulation type, which is what "highest" asks of a device.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/literal.h"
#include "core/hlo/shape.h"

namespace systolic::eval {

// Result dimensions: batch, lhs free, rhs free (XLA's order).
absl::StatusOr<Literal> DotGeneral(const Literal& lhs, const Literal& rhs,
                                   const DotDimensionNumbers& dnums, PrimitiveType result_type);

// out[b] = lhs[b] x rhs[b] for b < batch, all dense row-major buffers of
// `type` (an accumulation type): lhs [m, k], rhs [k, n], out [m, n]. The GEMM
// shared by dot and convolution.
absl::Status BatchMatMul(PrimitiveType type, const void* lhs, const void* rhs, void* out,
                         int64_t batch, int64_t m, int64_t k, int64_t n);

// The type products are accumulated in for a result of `result_type`.
PrimitiveType AccumulationType(PrimitiveType result_type);

}  // namespace systolic::eval
