// Reverse-mode autodiff over the recorded graph: the gradient of a loss
// with respect to tensors is itself recorded (nothing runs), under scopes
// "gradients/<forward op's name>", from the VJP rule of each HLO primitive.
// Collectives differentiate into collectives (all-gather into
// reduce-scatter), so gradients of data-parallel and fully sharded programs
// come out with the communication they need.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/lazy/node.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// d loss / d wrt[i] for each i, shaped like wrt[i]. `loss` is usually a
// scalar; otherwise the gradient of the sum of its elements. A tensor the
// loss does not depend on gets zeros.
std::vector<Tensor> Gradients(const Tensor& loss, absl::Span<const Tensor> wrt);

// The same on nodes: the cotangent of `output` is `seed` (ones if null).
absl::StatusOr<std::vector<NodePtr>> GradientNodes(const NodePtr& output,
                                                   absl::Span<const NodePtr> wrt,
                                                   const NodePtr& seed = nullptr);

// `x`'s value, through which no gradient flows.
Tensor StopGradient(const Tensor& x);

}  // namespace systolic::lazy
