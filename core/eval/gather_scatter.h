// gather and scatter with every dimension number XLA has, batching dimensions
// included. Gather clamps each start index so the slice stays in the operand;
// scatter skips an update window that would leave the operand (both as XLA
// does). indices_are_sorted and unique_indices are hints only: updates are
// applied in order, one at a time, whatever they say.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/scalar_function.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

absl::StatusOr<Literal> Gather(const Literal& operand, const Literal& start_indices,
                               const GatherDimensionNumbers& dnums,
                               absl::Span<const int64_t> slice_sizes,
                               absl::Span<const int64_t> result_dims);

// operands and updates pair up (variadic scatter); the combiner takes
// (operand values..., update values...) and returns the new operand values.
absl::StatusOr<Literal> Scatter(absl::Span<const Literal* const> operands,
                                const Literal& scatter_indices,
                                absl::Span<const Literal* const> updates,
                                const ScatterDimensionNumbers& dnums, ScalarFunction& combiner);

}  // namespace systolic::eval
