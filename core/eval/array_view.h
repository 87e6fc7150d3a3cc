// Affine views of a dense row-major array: the geometry of broadcast,
// transpose, slice and reverse. The whole-array ops materialise a view with
// StridedCopy; the fused-elementwise evaluator reads it a chunk at a time
// with GatherViewRange, so both share one definition of each op.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace systolic::eval {

// Element (i_0, ..., i_k) of the view is source element
// offset + sum(i_d * strides[d]).
struct ArrayView {
  std::vector<int64_t> dims;
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

// The identity view of an array of `dims`.
ArrayView DenseView(absl::Span<const int64_t> dims);
// Operand dimension i becomes output dimension dimensions[i].
absl::StatusOr<ArrayView> BroadcastView(absl::Span<const int64_t> operand_dims,
                                        absl::Span<const int64_t> output_dims,
                                        absl::Span<const int64_t> dimensions);
// Output dimension j is operand dimension permutation[j].
absl::StatusOr<ArrayView> TransposeView(absl::Span<const int64_t> operand_dims,
                                        absl::Span<const int64_t> permutation);
absl::StatusOr<ArrayView> SliceView(absl::Span<const int64_t> operand_dims,
                                    absl::Span<const int64_t> starts,
                                    absl::Span<const int64_t> limits,
                                    absl::Span<const int64_t> strides);
absl::StatusOr<ArrayView> ReverseView(absl::Span<const int64_t> operand_dims,
                                      absl::Span<const int64_t> dimensions);

}  // namespace systolic::eval
