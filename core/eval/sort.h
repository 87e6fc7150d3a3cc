// sort (multi-operand, by a comparator computation; always stable, which is
// a valid result whether or not is_stable is set) and topk.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/scalar_function.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

// The comparator takes (lhs0, rhs0, lhs1, rhs1, ...) and returns pred: true
// when lhs goes first. Returns an array for one operand, a tuple otherwise.
absl::StatusOr<Literal> Sort(absl::Span<const Literal* const> operands, int64_t dimension,
                             ScalarFunction& comparator);

// The k largest (or smallest) elements of each row along the last dimension,
// in order, with their s32 indices: (values, indices). Floats are ordered by
// the total order; ties keep the lower index first.
absl::StatusOr<Literal> TopK(const Literal& operand, int64_t k, bool largest);

}  // namespace systolic::eval
