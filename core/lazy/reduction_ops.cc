#include "core/lazy/reduction_ops.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {
namespace {

absl::StatusOr<std::vector<int64_t>> NormalizeDims(std::vector<int64_t> dims, int64_t rank) {
  if (dims.empty()) {
    for (int64_t i = 0; i < rank; ++i) dims.push_back(i);
    return dims;
  }
  for (int64_t& d : dims) {
    const int64_t original = d;
    if (d < 0) d += rank;
    if (d < 0 || d >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", original, " is out of range for rank ", rank));
    }
  }
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

// The reduced node, reshaped to keep size-1 dimensions when asked.
absl::StatusOr<NodePtr> ReduceNode(const Tensor& x, const std::vector<int64_t>& requested,
                                   bool keepdim, ScalarComputation kind, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, NormalizeDims(requested, x.rank()));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr reduced, graph::Reduce(x.node(), dims, kind, name));
  if (!keepdim) return reduced;
  std::vector<int64_t> kept = x.dims();
  for (int64_t d : dims) kept[d] = 1;
  return graph::Reshape(reduced, kept, name);
}

}  // namespace

Tensor Sum(const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
  return RecordOp({x}, [&] { return ReduceNode(x, dims, keepdim, ScalarComputation::kAdd, "sum"); });
}

Tensor Mean(const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> normalized, NormalizeDims(dims, x.rank()));
    int64_t count = 1;
    for (int64_t d : normalized) count *= x.dim(d);
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr sum,
                              ReduceNode(x, normalized, keepdim, ScalarComputation::kAdd, "mean"));
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr divisor,
                              graph::Full(double(count), sum->shape(), "mean"));
    return graph::Binary(HloOpcode::kDivide, sum, divisor, "mean");
  });
}

Tensor Max(const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
  return RecordOp({x}, [&] { return ReduceNode(x, dims, keepdim, ScalarComputation::kMax, "max"); });
}

Tensor Min(const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
  return RecordOp({x}, [&] { return ReduceNode(x, dims, keepdim, ScalarComputation::kMin, "min"); });
}

}  // namespace systolic::lazy
