#include "core/lazy/nn_ops.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/shape_ops.h"

namespace systolic::lazy {
namespace {

// A 2-D window over the last two dimensions of an NCHW tensor.
Window Window2d(int64_t rank, int64_t kernel, int64_t stride, int64_t padding,
                bool spatial_only) {
  Window window;
  for (int64_t i = 0; i < rank; ++i) {
    WindowDimension d;
    const bool spatial = !spatial_only || i >= rank - 2;
    if (spatial) {
      d.size = kernel;
      d.stride = stride;
      d.padding_low = padding;
      d.padding_high = padding;
    }
    window.dimensions.push_back(d);
  }
  return window;
}

}  // namespace

Tensor Linear(const Tensor& x, const Tensor& w, const Tensor& b) {
  Tensor y = MatMul(x, w);
  if (!b.defined()) return y;
  NameScope scope("bias");
  return Add(y, b);
}

Tensor Relu(const Tensor& x) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr zero, graph::Full(0, x.shape(), "relu"));
    return graph::Binary(HloOpcode::kMaximum, x.node(), zero, "relu");
  });
}

Tensor Gelu(const Tensor& x, bool tanh_approximation) {
  NameScope scope("gelu");
  if (tanh_approximation) {
    const double k = std::sqrt(2.0 / M_PI);
    Tensor inner = (x + x * x * x * 0.044715) * k;
    return x * 0.5 * (Tanh(inner) + 1.0);
  }
  return x * 0.5 * (Erf(x * M_SQRT1_2) + 1.0);
}

Tensor Softmax(const Tensor& x, int64_t dim) {
  NameScope scope("softmax");
  // Subtracting the max keeps exp finite; it cancels, so no gradient flows
  // through it.
  Tensor shifted = x - StopGradient(Max(x, {dim}, /*keepdim=*/true));
  Tensor e = Exp(shifted);
  return e / Sum(e, {dim}, /*keepdim=*/true);
}

Tensor LogSoftmax(const Tensor& x, int64_t dim) {
  NameScope scope("log_softmax");
  Tensor shifted = x - StopGradient(Max(x, {dim}, /*keepdim=*/true));
  return shifted - Log(Sum(Exp(shifted), {dim}, /*keepdim=*/true));
}

Tensor LayerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double epsilon) {
  NameScope scope("layer_norm");
  Tensor mean = Mean(x, {-1}, /*keepdim=*/true);
  Tensor centered = x - mean;
  Tensor variance = Mean(centered * centered, {-1}, /*keepdim=*/true);
  Tensor normalized = centered * Rsqrt(variance + epsilon);
  return normalized * gamma + beta;
}

Tensor Conv2d(const Tensor& x, const Tensor& w, int64_t stride, int64_t padding) {
  return RecordOp({x, w}, [&]() -> absl::StatusOr<NodePtr> {
    if (x.rank() != 4 || w.rank() != 4) {
      return absl::InvalidArgumentError(absl::StrCat("conv2d needs x [N,C,H,W] and w [O,C,KH,KW], got ",
                                                     x.shape().ToString(), " and ",
                                                     w.shape().ToString()));
    }
    if (w.dim(2) != w.dim(3)) {
      return absl::InvalidArgumentError("conv2d: only square kernels are supported");
    }
    SYSTOLIC_ASSIGN_OR_RETURN(ConvolutionDimensionNumbers dnums,
                              ConvolutionDimensionNumbers::FromDimLabels("bf01_oi01->bf01"));
    const Window window = Window2d(2, w.dim(2), stride, padding, /*spatial_only=*/false);
    return graph::Convolution(x.node(), w.node(), window, dnums, std::nullopt, "conv2d");
  });
}

Tensor MaxPool2d(const Tensor& x, int64_t kernel, int64_t stride, int64_t padding) {
  return RecordOp({x}, [&] {
    return graph::ReduceWindow(x.node(), Window2d(x.rank(), kernel, stride, padding, true),
                               ScalarComputation::kMax, "max_pool2d");
  });
}

Tensor AvgPool2d(const Tensor& x, int64_t kernel, int64_t stride, int64_t padding) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> {
    SYSTOLIC_ASSIGN_OR_RETURN(
        NodePtr sum, graph::ReduceWindow(x.node(), Window2d(x.rank(), kernel, stride, padding, true),
                                         ScalarComputation::kAdd, "avg_pool2d"));
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr count,
                              graph::Full(double(kernel * kernel), sum->shape(), "avg_pool2d"));
    return graph::Binary(HloOpcode::kDivide, sum, count, "avg_pool2d");
  });
}

Tensor OneHot(const Tensor& labels, int64_t classes, PrimitiveType type) {
  return RecordOp({labels}, [&]() -> absl::StatusOr<NodePtr> {
    if (labels.rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("one_hot needs a vector of labels, got ", labels.shape().ToString()));
    }
    const std::vector<int64_t> dims = {labels.dim(0), classes};
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr rows, graph::Broadcast(labels.node(), dims, {0}, "one_hot"));
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr iota,
                              graph::Iota(Shape(labels.dtype(), dims), 1, "one_hot"));
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr hit,
                              graph::Compare(rows, iota, ComparisonDirection::kEq, "one_hot"));
    return graph::Convert(hit, type, "one_hot");
  });
}

Tensor FlashAttention(const Tensor& q, const Tensor& k, const Tensor& v, bool causal) {
  return RecordOp({q, k, v}, [&] {
    return graph::FlashAttention(q.node(), k.node(), v.node(), causal);
  });
}

Tensor CrossEntropy(const Tensor& logits, const Tensor& labels) {
  NameScope scope("cross_entropy");
  if (logits.ok() && logits.rank() != 2) {
    return Tensor::MakeError(logits.device(),
                             absl::InvalidArgumentError(absl::StrCat(
                                 "cross_entropy needs logits [N, C], got ",
                                 logits.shape().ToString())));
  }
  Tensor log_probs = LogSoftmax(logits, -1);
  Tensor picked = Sum(OneHot(labels, logits.dim(1), logits.dtype()) * log_probs, {1});
  return -Mean(picked);
}

}  // namespace systolic::lazy
