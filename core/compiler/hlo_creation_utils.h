// Building new instructions next to existing ones: each Make* infers the
// result shape, adds the instruction to the computation of its (first)
// operand and returns it. Shapes get a row-major layout when the operand has
// a layout, so a laid-out module stays laid out.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

absl::StatusOr<HloInstruction*> MakeUnaryHlo(HloOpcode opcode, HloInstruction* operand);
absl::StatusOr<HloInstruction*> MakeBinaryHlo(HloOpcode opcode, HloInstruction* lhs,
                                              HloInstruction* rhs);
absl::StatusOr<HloInstruction*> MakeCompareHlo(ComparisonDirection direction,
                                               HloInstruction* lhs, HloInstruction* rhs);
absl::StatusOr<HloInstruction*> MakeSelectHlo(HloInstruction* pred, HloInstruction* on_true,
                                              HloInstruction* on_false);
// The operand itself when it already has the type.
absl::StatusOr<HloInstruction*> MakeConvertToHlo(HloInstruction* operand, PrimitiveType type);
// `dimensions` maps operand dimensions to result dimensions.
absl::StatusOr<HloInstruction*> MakeBroadcastHlo(HloInstruction* operand,
                                                 absl::Span<const int64_t> dimensions,
                                                 absl::Span<const int64_t> result_dimensions);
absl::StatusOr<HloInstruction*> MakeReshapeHlo(absl::Span<const int64_t> result_dimensions,
                                               HloInstruction* operand);
absl::StatusOr<HloInstruction*> MakeTransposeHlo(HloInstruction* operand,
                                                 absl::Span<const int64_t> permutation);
absl::StatusOr<HloInstruction*> MakeSliceHlo(HloInstruction* operand,
                                             absl::Span<const int64_t> starts,
                                             absl::Span<const int64_t> limits,
                                             absl::Span<const int64_t> strides);
absl::StatusOr<HloInstruction*> MakeReduceHlo(HloInstruction* operand, HloInstruction* init,
                                              absl::Span<const int64_t> dimensions,
                                              HloComputation* reducer);
// A scalar constant in `computation`.
HloInstruction* MakeScalarConstant(HloComputation* computation, Literal literal);
// A scalar of `type` converted from `value`.
Literal ScalarLiteral(PrimitiveType type, double value);
// A constant of the instruction's element type converted from `value`.
HloInstruction* MakeScalarLike(HloInstruction* like, double value);

// `(x, y) -> opcode(x, y)` on scalars of `type`, added to the module (one per
// opcode and type: an existing one of the same form is reused).
HloComputation* MakeScalarComputation(HloModule* module, HloOpcode opcode, PrimitiveType type);

// A row-major layout on `shape` when `like` has one (arrays only).
void MaybeGiveLayout(Shape* shape, const Shape& like);

}  // namespace systolic
