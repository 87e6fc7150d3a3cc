#include "core/lazy/random_ops.h"

#include <cmath>

#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {
namespace {

// f32 in [0, 1) from the top 23 bits of each u32: they become the mantissa
// of a number in [1, 2), from which 1 is subtracted.
absl::StatusOr<NodePtr> UnitUniform(LazyDevice& device, absl::Span<const int64_t> dims) {
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr bits, device.NextRandomBits(dims));
  const Shape u32(U32, dims);
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr nine, graph::Full(9, u32, "shift"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr mantissa,
                            graph::Binary(HloOpcode::kShiftRightLogical, bits, nine, "mantissa"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr exponent, graph::Full(0x3F800000u, u32, "exponent"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr pattern,
                            graph::Binary(HloOpcode::kOr, mantissa, exponent, "bits"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr one_to_two, graph::BitcastConvert(pattern, F32, "to_float"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr one, graph::Full(1, Shape(F32, dims), "one"));
  return graph::Binary(HloOpcode::kSubtract, one_to_two, one, "uniform");
}

Tensor Unit(LazyDevice& device, absl::Span<const int64_t> dims) {
  absl::StatusOr<NodePtr> node = UnitUniform(device, dims);
  if (!node.ok()) return Tensor::MakeError(&device, node.status());
  return Tensor::Make(&device, *std::move(node));
}

}  // namespace

Tensor RandomUniform(LazyDevice& device, absl::Span<const int64_t> dims, double low, double high,
                     PrimitiveType type) {
  NameScope scope("random_uniform");
  Tensor u = Unit(device, dims);
  if (low != 0 || high != 1) u = u * (high - low) + low;
  return Cast(u, type);
}

Tensor RandomNormal(LazyDevice& device, absl::Span<const int64_t> dims, double mean,
                    double stddev, PrimitiveType type) {
  NameScope scope("random_normal");
  // 1 - u lies in (0, 1], so the log is finite.
  Tensor u1 = 1.0 - Unit(device, dims);
  Tensor u2 = Unit(device, dims);
  Tensor z = Sqrt(Log(u1) * -2.0) * Cos(u2 * (2 * M_PI));
  if (mean != 0 || stddev != 1) z = z * stddev + mean;
  return Cast(z, type);
}

}  // namespace systolic::lazy
