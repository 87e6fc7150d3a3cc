// Neural-network layers' operations, composed of HLO primitives (so autodiff
// needs no rule of its own for them): activations, softmax, layer norm,
// convolution, pooling, cross-entropy. Composite ops record their
// primitives under a scope of their name ("dense_1/softmax/exp").
#pragma once

#include <cstdint>

#include "core/lazy/tensor.h"

namespace systolic::lazy {

// x @ w + b, with w [in, out] and b [out] (b may be undefined).
Tensor Linear(const Tensor& x, const Tensor& w, const Tensor& b);
Tensor Relu(const Tensor& x);
// The exact GELU (with erf), or the tanh approximation.
Tensor Gelu(const Tensor& x, bool tanh_approximation = false);
Tensor Softmax(const Tensor& x, int64_t dim = -1);
Tensor LogSoftmax(const Tensor& x, int64_t dim = -1);
// Normalises over the last dimension, then scales and shifts.
Tensor LayerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double epsilon = 1e-5);

// x [N, C, H, W] (*) w [O, C, KH, KW] -> [N, O, H', W'].
Tensor Conv2d(const Tensor& x, const Tensor& w, int64_t stride = 1, int64_t padding = 0);
// Over [N, C, H, W]; padding counts as -inf (max) or 0 (average).
Tensor MaxPool2d(const Tensor& x, int64_t kernel, int64_t stride, int64_t padding = 0);
Tensor AvgPool2d(const Tensor& x, int64_t kernel, int64_t stride, int64_t padding = 0);

// Self-attention of q, k, v [batch, heads, sequence, head size] as one
// tiled (flash) kernel, not composed of primitives: the device costs it as
// a flash kernel, autodiff pairs it with its backward kernel, and the
// reference evaluator cannot run it (a timing-only simulation can).
Tensor FlashAttention(const Tensor& q, const Tensor& k, const Tensor& v, bool causal);

// [N] integer labels -> [N, classes] of `type` (1 at the label).
Tensor OneHot(const Tensor& labels, int64_t classes, PrimitiveType type = F32);
// Mean over the batch of -log softmax(logits)[label]; logits [N, C], labels [N].
Tensor CrossEntropy(const Tensor& logits, const Tensor& labels);

}  // namespace systolic::lazy
