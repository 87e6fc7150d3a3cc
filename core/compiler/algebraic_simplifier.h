// Local rewrites that make a program smaller or cheaper without changing
// what it computes, in XLA's spirit. Each rewrite has a name (see the pass's
// run log); floating-point rewrites follow XLA's rules on NaN and signed
// zero: x*0 is folded for integers only, x+0 => x is done (as XLA does) but
// marked as possibly changing the sign of a zero, x-x => 0 is for integers.
//
// Identities
//   add(A, 0) => A            subtract(A, 0) => A       multiply(A, 1) => A
//   divide(A, 1) => A         and(A, true) => A         or(A, false) => A
//   and(A, false) => false    or(A, true) => true       and/or(A, A) => A
//   multiply(A, 0) => 0 and subtract(A, A) => 0 (integers)
//   negate(negate(A)) => A    abs(abs(A)) => abs(A)
// Conversions
//   convert(A) to A's type => A
//   convert(convert(A)) => convert(A) or A, when the inner convert is lossless
// Data movement
//   reshape(A) to A's shape => A               reshape(reshape(A)) => reshape(A)
//   reshape(broadcast(scalar)) => broadcast(scalar)
//   transpose(A) by the identity => A          transpose(transpose(A)) => transpose(A)
//   broadcast(A) to A's shape => A             broadcast(broadcast(A)) => broadcast(A)
//   slice(A) of all of A => A                  slice(slice(A)) => slice(A)
//   concatenate(A) => A                        pad(A) by nothing => A
//   copy(A) => A (unless it changes the layout), copy(copy(A)) => copy(A)
// Reductions and contractions
//   reduce over no (or only size-1) dimensions => the reducer applied elementwise
//   reduce(broadcast(A)) over broadcast dimensions => A (times the count for add)
//   dot with no contraction, a contraction of size 1, or a side without free
//     dimensions => multiply (and reduce)
// Selection and comparison
//   select(constant P, A, B) => A or B         select(P, A, A) => A
//   compare(constant, constant) => constant    compare(A, A) => constant (integers)
// Sinking
//   elementwise(reshape(A), reshape(B)) => reshape(elementwise(A, B)) (and the
//   same for transposes), when the reshapes have no other users
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

struct AlgebraicSimplifierOptions {
  // After layout assignment: never change a layout, create nothing new.
  bool is_layout_sensitive = false;
  // Turn degenerate dots into multiply / reduce.
  bool enable_dot_strength_reduction = true;
  // Move reshapes and transposes below elementwise operations.
  bool enable_sinking = true;
};

class AlgebraicSimplifier : public HloPassInterface {
 public:
  explicit AlgebraicSimplifier(AlgebraicSimplifierOptions options = {}) : options_(options) {}

  absl::string_view name() const override { return "algsimp"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  AlgebraicSimplifierOptions options_;
};

}  // namespace systolic
