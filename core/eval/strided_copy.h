// The one data-movement primitive of the evaluator: copying elements between
// two affine views of dense buffers. Transpose, slice, reverse, broadcast,
// pad, concatenate and (dynamic-)update-slice are all a StridedCopy with the
// right offsets and strides, so they work for every element type at once (the
// element is just `element_bytes` bytes).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace systolic::eval {

// Row-major strides (in elements) of an array of `dims`.
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims);

// For every index i of the iteration space `dims`:
//   dst[dst_offset + sum(i[d] * dst_strides[d])] =
//       src[src_offset + sum(i[d] * src_strides[d])]
// Offsets and strides count elements; strides may be zero (broadcast) or
// negative (reverse). Runs that are contiguous on both sides are memcpy'd.
void StridedCopy(absl::Span<const int64_t> dims, const void* src, int64_t src_offset,
                 absl::Span<const int64_t> src_strides, void* dst, int64_t dst_offset,
                 absl::Span<const int64_t> dst_strides, int64_t element_bytes);

// The elements [begin, begin + count) in row-major order of the view
// (dims, src_offset, src_strides) of `src`, written densely to `dst`.
void GatherViewRange(absl::Span<const int64_t> dims, const void* src, int64_t src_offset,
                     absl::Span<const int64_t> src_strides, int64_t begin, int64_t count, void* dst,
                     int64_t element_bytes);

// dst[i] = value for i in [0, count).
void FillElements(void* dst, const void* value, int64_t count, int64_t element_bytes);

}  // namespace systolic::eval
