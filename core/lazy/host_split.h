// Splitting host values into per-replica pieces and joining them back:
// batches split by rows for data parallelism, parameters flattened, padded
// and split into equal chunks for fully sharded data parallelism.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/literal.h"

namespace systolic::lazy {

// `n` literals of dim(0)/n rows each (dim 0 must divide by n).
absl::StatusOr<std::vector<Literal>> SplitRows(const Literal& value, int64_t n);
// Row-wise concatenation of literals of equal trailing dimensions.
absl::StatusOr<Literal> ConcatenateRows(absl::Span<const Literal> pieces);
// The elements of `value` flattened, zero-padded to a multiple of `n`, in
// `n` equal rank-1 chunks.
absl::StatusOr<std::vector<Literal>> SplitFlat(const Literal& value, int64_t n);
// The inverse of SplitFlat: chunks joined, padding dropped, `shape` restored.
absl::StatusOr<Literal> JoinFlat(absl::Span<const Literal> chunks, const Shape& shape);

}  // namespace systolic::lazy
