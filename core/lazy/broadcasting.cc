#include "core/lazy/broadcasting.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {

absl::StatusOr<std::vector<int64_t>> BroadcastDimensions(absl::Span<const int64_t> a,
                                                         absl::Span<const int64_t> b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(absl::StrCat("cannot broadcast [", absl::StrJoin(a, ","),
                                                     "] with [", absl::StrJoin(b, ","), "]"));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

absl::StatusOr<NodePtr> BroadcastNodeTo(const NodePtr& x, absl::Span<const int64_t> dims) {
  const std::vector<int64_t>& in = x->shape().dimensions();
  if (in == std::vector<int64_t>(dims.begin(), dims.end())) return x;
  if (in.size() > dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot broadcast [", absl::StrJoin(in, ","),
                                                   "] to [", absl::StrJoin(dims, ","), "]"));
  }
  const size_t offset = dims.size() - in.size();
  std::vector<int64_t> kept_dims;        // operand dimensions that stay
  std::vector<int64_t> broadcast_dims;   // where they go
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == dims[offset + i]) {
      kept_dims.push_back(in[i]);
      broadcast_dims.push_back(int64_t(offset + i));
    } else if (in[i] != 1) {
      return absl::InvalidArgumentError(absl::StrCat("cannot broadcast [", absl::StrJoin(in, ","),
                                                     "] to [", absl::StrJoin(dims, ","), "]"));
    }
  }
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr reshaped, graph::Reshape(x, kept_dims));
  return graph::Broadcast(reshaped, dims, broadcast_dims);
}

absl::StatusOr<std::pair<NodePtr, NodePtr>> BroadcastPair(const NodePtr& a, const NodePtr& b) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                            BroadcastDimensions(a->shape().dimensions(), b->shape().dimensions()));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr ba, BroadcastNodeTo(a, dims));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr bb, BroadcastNodeTo(b, dims));
  return std::make_pair(ba, bb);
}

}  // namespace systolic::lazy
