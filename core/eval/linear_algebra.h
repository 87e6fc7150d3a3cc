// Dense linear algebra opcodes on Eigen: cholesky and triangular-solve, over
// leading batch dimensions, in f32 / f64 / c64 / c128 (narrower floats are
// computed in f32 and rounded).
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

// a = L L^H (lower) or U^H U (upper), reading only that triangle; the other
// triangle of the result is zero. A matrix that is not positive definite
// gives NaNs.
absl::StatusOr<Literal> Cholesky(const Literal& a, bool lower);

// Solves op(a) x = b (left_side) or x op(a) = b, reading only the `lower` or
// upper triangle of a, with an implicit unit diagonal when asked.
absl::StatusOr<Literal> TriangularSolve(const Literal& a, const Literal& b, bool left_side,
                                        bool lower, bool unit_diagonal,
                                        TriangularSolveTranspose transpose_a);

}  // namespace systolic::eval
