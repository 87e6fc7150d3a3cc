// NumPy / PyTorch broadcasting for tensor operations: HLO has none, so the
// front end makes operands the same shape with explicit reshapes and
// broadcasts (whose gradients autodiff then sums back).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

// The broadcast dimensions of two shapes (aligned at the right; sizes equal
// or 1), or an error naming both.
absl::StatusOr<std::vector<int64_t>> BroadcastDimensions(absl::Span<const int64_t> a,
                                                         absl::Span<const int64_t> b);

// `x` made `dims` by NumPy rules: size-1 dimensions dropped by a reshape,
// the rest broadcast. Returns `x` when it already has `dims`.
absl::StatusOr<NodePtr> BroadcastNodeTo(const NodePtr& x, absl::Span<const int64_t> dims);

// Both operands broadcast to their common dimensions.
absl::StatusOr<std::pair<NodePtr, NodePtr>> BroadcastPair(const NodePtr& a, const NodePtr& b);

}  // namespace systolic::lazy
