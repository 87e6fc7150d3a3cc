// Moving data without arithmetic: reshape, broadcast, transpose, slicing,
// indexing and concatenation. Negative dimensions count from the end.
#pragma once

#include <cstdint>

#include "absl/types/span.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// One dimension may be -1 (inferred).
Tensor Reshape(const Tensor& x, absl::Span<const int64_t> dims);
// NumPy broadcasting to `dims`.
Tensor BroadcastTo(const Tensor& x, absl::Span<const int64_t> dims);
Tensor Transpose(const Tensor& x, absl::Span<const int64_t> permutation);
// Swaps the last two dimensions.
Tensor TransposeLast2(const Tensor& x);
// Inserts a dimension of size 1 before `dim`.
Tensor Unsqueeze(const Tensor& x, int64_t dim);
// Removes the size-1 dimension `dim`.
Tensor Squeeze(const Tensor& x, int64_t dim);
// Collapses dimensions start_dim.. into one.
Tensor Flatten(const Tensor& x, int64_t start_dim = 1);

// x[..., start:limit:step, ...] along `dim`.
Tensor Slice(const Tensor& x, int64_t dim, int64_t start, int64_t limit, int64_t step = 1);
// x[..., index, ...]: the dimension is removed.
Tensor Index(const Tensor& x, int64_t dim, int64_t index);
// The rows (along `dim`) named by an s32 vector of indices.
Tensor IndexSelect(const Tensor& x, int64_t dim, const Tensor& indices);
Tensor Concat(absl::Span<const Tensor> xs, int64_t dim);

}  // namespace systolic::lazy
