// Gradients of windowed operations (convolution, reduce-window), written as
// windowed operations themselves: the input gradient of a convolution is a
// convolution of the lhs-dilated output gradient with the reversed kernel;
// the kernel gradient is a convolution of the input with the
// window-dilated output gradient.
#pragma once

#include "absl/status/statusor.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

// `conv` = convolution(input, kernel); `g` its output cotangent.
absl::StatusOr<NodePtr> ConvolutionInputGradient(const Node& conv, const NodePtr& g);
absl::StatusOr<NodePtr> ConvolutionKernelGradient(const Node& conv, const NodePtr& g);
// `reduce_window` sums (kAdd) or takes maxima (kMax) of windows of its input.
absl::StatusOr<NodePtr> ReduceWindowInputGradient(const Node& reduce_window, const NodePtr& g);

}  // namespace systolic::lazy
