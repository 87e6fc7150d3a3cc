#include "core/eval/array_view.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

std::string Dims(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

}  // namespace

ArrayView DenseView(absl::Span<const int64_t> dims) {
  return ArrayView{std::vector<int64_t>(dims.begin(), dims.end()), 0, RowMajorStrides(dims)};
}

absl::StatusOr<ArrayView> BroadcastView(absl::Span<const int64_t> operand_dims,
                                        absl::Span<const int64_t> output_dims,
                                        absl::Span<const int64_t> dimensions) {
  if (dimensions.size() != operand_dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("broadcast of ", Dims(operand_dims), " needs ",
                                                   operand_dims.size(), " dimensions, got ",
                                                   dimensions.size()));
  }
  const std::vector<int64_t> op_strides = RowMajorStrides(operand_dims);
  ArrayView v{std::vector<int64_t>(output_dims.begin(), output_dims.end()), 0,
              std::vector<int64_t>(output_dims.size(), 0)};
  for (size_t i = 0; i < dimensions.size(); ++i) {
    const int64_t d = dimensions[i];
    if (d < 0 || d >= int64_t(output_dims.size()) || output_dims[d] != operand_dims[i]) {
      return absl::InvalidArgumentError(absl::StrCat("broadcast dimension ", d, " does not fit ",
                                                     Dims(operand_dims), " into ",
                                                     Dims(output_dims)));
    }
    v.strides[d] = op_strides[i];
  }
  return v;
}

absl::StatusOr<ArrayView> TransposeView(absl::Span<const int64_t> operand_dims,
                                        absl::Span<const int64_t> permutation) {
  const int64_t rank = int64_t(operand_dims.size());
  if (int64_t(permutation.size()) != rank) {
    return absl::InvalidArgumentError("transpose: the permutation does not match the rank");
  }
  std::vector<bool> seen(rank, false);
  for (int64_t p : permutation) {
    if (p < 0 || p >= rank || seen[p]) {
      return absl::InvalidArgumentError(
          absl::StrCat("transpose: ", Dims(permutation), " is not a permutation"));
    }
    seen[p] = true;
  }
  const std::vector<int64_t> op_strides = RowMajorStrides(operand_dims);
  ArrayView v{std::vector<int64_t>(rank), 0, std::vector<int64_t>(rank)};
  for (int64_t j = 0; j < rank; ++j) {
    v.dims[j] = operand_dims[permutation[j]];
    v.strides[j] = op_strides[permutation[j]];
  }
  return v;
}

absl::StatusOr<ArrayView> SliceView(absl::Span<const int64_t> operand_dims,
                                    absl::Span<const int64_t> starts,
                                    absl::Span<const int64_t> limits,
                                    absl::Span<const int64_t> strides) {
  const int64_t rank = int64_t(operand_dims.size());
  if (int64_t(starts.size()) != rank || int64_t(limits.size()) != rank ||
      int64_t(strides.size()) != rank) {
    return absl::InvalidArgumentError("slice: starts, limits and strides must match the rank");
  }
  const std::vector<int64_t> op_strides = RowMajorStrides(operand_dims);
  ArrayView v{std::vector<int64_t>(rank), 0, std::vector<int64_t>(rank)};
  for (int64_t d = 0; d < rank; ++d) {
    if (starts[d] < 0 || limits[d] < starts[d] || limits[d] > operand_dims[d] || strides[d] <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("slice [", starts[d], ":", limits[d], ":",
                                                     strides[d], "] is out of range for dimension ",
                                                     d, " of ", Dims(operand_dims)));
    }
    v.dims[d] = (limits[d] - starts[d] + strides[d] - 1) / strides[d];
    v.strides[d] = op_strides[d] * strides[d];
    v.offset += starts[d] * op_strides[d];
  }
  return v;
}

absl::StatusOr<ArrayView> ReverseView(absl::Span<const int64_t> operand_dims,
                                      absl::Span<const int64_t> dimensions) {
  ArrayView v = DenseView(operand_dims);
  std::vector<bool> seen(operand_dims.size(), false);
  for (int64_t d : dimensions) {
    if (d < 0 || d >= int64_t(operand_dims.size()) || seen[d]) {
      return absl::InvalidArgumentError(absl::StrCat("reverse dimension ", d, " is invalid"));
    }
    seen[d] = true;
    if (operand_dims[d] == 0) continue;
    v.offset += (operand_dims[d] - 1) * v.strides[d];
    v.strides[d] = -v.strides[d];
  }
  return v;
}

}  // namespace systolic::eval
