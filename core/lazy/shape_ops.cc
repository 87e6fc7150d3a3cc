#include "core/lazy/shape_ops.h"

#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/broadcasting.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {
namespace {

absl::StatusOr<int64_t> NormalizeDim(int64_t dim, int64_t rank) {
  const int64_t d = dim < 0 ? dim + rank : dim;
  if (d < 0 || d >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("dimension ", dim, " is out of range for rank ", rank));
  }
  return d;
}

}  // namespace

Tensor Reshape(const Tensor& x, absl::Span<const int64_t> dims) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    std::vector<int64_t> out(dims.begin(), dims.end());
    int64_t known = 1, inferred = -1;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == -1) {
        if (inferred >= 0) return absl::InvalidArgumentError("reshape: more than one -1");
        inferred = int64_t(i);
      } else {
        known *= out[i];
      }
    }
    if (inferred >= 0) {
      if (known == 0 || x.numel() % known != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "reshape: cannot infer -1 for ", x.shape().ToString(), " of ", x.numel(), " elements"));
      }
      out[inferred] = x.numel() / known;
    }
    return graph::Reshape(x.node(), out);
  });
}

Tensor BroadcastTo(const Tensor& x, absl::Span<const int64_t> dims) {
  return RecordOp({x}, [&] { return BroadcastNodeTo(x.node(), dims); });
}

Tensor Transpose(const Tensor& x, absl::Span<const int64_t> permutation) {
  return RecordOp({x}, [&] { return graph::Transpose(x.node(), permutation); });
}

Tensor TransposeLast2(const Tensor& x) {
  std::vector<int64_t> perm(std::max<int64_t>(x.rank(), 0));
  std::iota(perm.begin(), perm.end(), 0);
  if (perm.size() >= 2) std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return Transpose(x, perm);
}

Tensor Unsqueeze(const Tensor& x, int64_t dim) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, x.rank() + 1));
    std::vector<int64_t> out = x.dims();
    out.insert(out.begin() + d, 1);
    return graph::Reshape(x.node(), out, "unsqueeze");
  });
}

Tensor Squeeze(const Tensor& x, int64_t dim) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, x.rank()));
    if (x.dim(d) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("squeeze: dimension ", dim, " of ", x.shape().ToString(), " is not 1"));
    }
    std::vector<int64_t> out = x.dims();
    out.erase(out.begin() + d);
    return graph::Reshape(x.node(), out, "squeeze");
  });
}

Tensor Flatten(const Tensor& x, int64_t start_dim) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(start_dim, x.rank()));
    std::vector<int64_t> out(x.dims().begin(), x.dims().begin() + d);
    int64_t rest = 1;
    for (int64_t i = d; i < x.rank(); ++i) rest *= x.dim(i);
    out.push_back(rest);
    return graph::Reshape(x.node(), out, "flatten");
  });
}

Tensor Slice(const Tensor& x, int64_t dim, int64_t start, int64_t limit, int64_t step) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, x.rank()));
    const int64_t size = x.dim(d);
    const int64_t s = std::clamp<int64_t>(start < 0 ? start + size : start, 0, size);
    const int64_t l = std::clamp<int64_t>(limit < 0 ? limit + size : limit, s, size);
    std::vector<int64_t> starts(x.rank(), 0), limits = x.dims(), strides(x.rank(), 1);
    starts[d] = s;
    limits[d] = l;
    strides[d] = step;
    return graph::Slice(x.node(), starts, limits, strides, "slice");
  });
}

Tensor Index(const Tensor& x, int64_t dim, int64_t index) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, x.rank()));
    const int64_t i = index < 0 ? index + x.dim(d) : index;
    if (i < 0 || i >= x.dim(d)) {
      return absl::InvalidArgumentError(absl::StrCat("index ", index, " is out of range for ",
                                                     "dimension ", dim, " of ",
                                                     x.shape().ToString()));
    }
    std::vector<int64_t> starts(x.rank(), 0), limits = x.dims(), strides(x.rank(), 1);
    starts[d] = i;
    limits[d] = i + 1;
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr sliced,
                              graph::Slice(x.node(), starts, limits, strides, "index"));
    std::vector<int64_t> out = x.dims();
    out.erase(out.begin() + d);
    return graph::Reshape(sliced, out, "index");
  });
}

Tensor IndexSelect(const Tensor& x, int64_t dim, const Tensor& indices) {
  return RecordOp({x, indices}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, x.rank()));
    if (indices.rank() != 1 || !primitive_util::IsIntegralType(indices.dtype())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "index_select needs a vector of integer indices, got ", indices.shape().ToString()));
    }
    GatherDimensionNumbers dnums;
    for (int64_t i = 0; i < x.rank(); ++i) {
      if (i != d) dnums.offset_dims.push_back(i);
    }
    dnums.collapsed_slice_dims = {d};
    dnums.start_index_map = {d};
    dnums.index_vector_dim = 1;
    std::vector<int64_t> slice_sizes = x.dims();
    slice_sizes[d] = 1;
    return graph::Gather(x.node(), indices.node(), dnums, slice_sizes, "index_select");
  });
}

Tensor Concat(absl::Span<const Tensor> xs, int64_t dim) {
  return RecordOp(xs, [&]() -> absl::StatusOr<NodePtr> {
    if (xs.empty()) return absl::InvalidArgumentError("concat of no tensors");
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, NormalizeDim(dim, xs[0].rank()));
    std::vector<NodePtr> nodes;
    for (const Tensor& t : xs) nodes.push_back(t.node());
    return graph::Concatenate(nodes, d, "concat");
  });
}

}  // namespace systolic::lazy
