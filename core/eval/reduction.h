// Reductions driven by a scalar computation: reduce (variadic), reduce-window
// (variadic) and select-and-scatter. Elements are combined in row-major order
// of the reduced positions, starting from the init value, as XLA's evaluator
// does; the usual binary reducers run their kernel over whole rows.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/scalar_function.h"
#include "core/hlo/literal.h"
#include "core/hlo/window.h"

namespace systolic::eval {

// inputs and inits pair up; the result is an array for one input, a tuple
// otherwise.
absl::StatusOr<Literal> Reduce(absl::Span<const Literal* const> inputs,
                               absl::Span<const Literal* const> inits,
                               absl::Span<const int64_t> dimensions, ScalarFunction& reducer);

// Padding and base-dilation holes are skipped (they contribute nothing).
absl::StatusOr<Literal> ReduceWindow(absl::Span<const Literal* const> inputs,
                                     absl::Span<const Literal* const> inits, const Window& window,
                                     ScalarFunction& reducer);

// For every window (one per source element), the element chosen by `select`
// (kept while select(kept, candidate) is true) receives
// scatter(output, source) in an output initialised to `init`.
absl::StatusOr<Literal> SelectAndScatter(const Literal& operand, const Literal& source,
                                         const Literal& init, const Window& window,
                                         ScalarFunction& select, ScalarFunction& scatter);

}  // namespace systolic::eval
