// Cross-replica collectives as tensor operations: each becomes an explicit
// collective instruction in the lowered program. Groups default to all of
// the device's replicas.
#pragma once

#include <cstdint>

#include "core/lazy/graph_ops.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// The sum over the replicas of each group, on every replica of the group.
Tensor AllReduceSum(const Tensor& x, const graph::ReplicaGroups& groups = {});
// The replicas' values concatenated along `dim`.
Tensor AllGather(const Tensor& x, int64_t dim, const graph::ReplicaGroups& groups = {});
// The sum over replicas, split along `dim`: replica r keeps part r.
Tensor ReduceScatterSum(const Tensor& x, int64_t dim, const graph::ReplicaGroups& groups = {});

}  // namespace systolic::lazy
