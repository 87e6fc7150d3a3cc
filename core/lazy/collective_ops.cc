#include "core/lazy/collective_ops.h"

#include "core/lazy/lazy_device.h"

namespace systolic::lazy {
namespace {

graph::ReplicaGroups GroupsOr(const Tensor& x, const graph::ReplicaGroups& groups) {
  if (!groups.empty() || x.device() == nullptr) return groups;
  return x.device()->AllReplicas();
}

}  // namespace

Tensor AllReduceSum(const Tensor& x, const graph::ReplicaGroups& groups) {
  return RecordOp({x}, [&] { return graph::AllReduce(x.node(), GroupsOr(x, groups)); });
}

Tensor AllGather(const Tensor& x, int64_t dim, const graph::ReplicaGroups& groups) {
  return RecordOp({x}, [&] { return graph::AllGather(x.node(), dim, GroupsOr(x, groups)); });
}

Tensor ReduceScatterSum(const Tensor& x, int64_t dim, const graph::ReplicaGroups& groups) {
  return RecordOp({x}, [&] { return graph::ReduceScatter(x.node(), dim, GroupsOr(x, groups)); });
}

}  // namespace systolic::lazy
