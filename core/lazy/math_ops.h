// Elementwise math, comparisons, casts and matrix products of lazy tensors.
// Binary operations broadcast as NumPy does; a C++ number in an expression
// (`x * 0.5`) is baked into the graph as a constant of the tensor's type, as
// a Python scalar is.
#pragma once

#include "core/hlo/primitive_type.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

Tensor Add(const Tensor& a, const Tensor& b);
Tensor Sub(const Tensor& a, const Tensor& b);
Tensor Mul(const Tensor& a, const Tensor& b);
Tensor Div(const Tensor& a, const Tensor& b);
Tensor Maximum(const Tensor& a, const Tensor& b);
Tensor Minimum(const Tensor& a, const Tensor& b);
Tensor Pow(const Tensor& a, const Tensor& b);

// `value` as a constant of x's type, broadcast to x's shape.
Tensor ScalarLike(const Tensor& x, double value);

Tensor Neg(const Tensor& x);
Tensor Exp(const Tensor& x);
Tensor Log(const Tensor& x);
Tensor Tanh(const Tensor& x);
Tensor Sigmoid(const Tensor& x);
Tensor Sqrt(const Tensor& x);
Tensor Rsqrt(const Tensor& x);
Tensor Abs(const Tensor& x);
Tensor Erf(const Tensor& x);
Tensor Cos(const Tensor& x);
Tensor Square(const Tensor& x);

// Comparisons give pred tensors.
Tensor Equal(const Tensor& a, const Tensor& b);
Tensor Greater(const Tensor& a, const Tensor& b);
Tensor GreaterEqual(const Tensor& a, const Tensor& b);
Tensor Less(const Tensor& a, const Tensor& b);
// `on_true` where `condition`, else `on_false` (all three broadcast).
Tensor Where(const Tensor& condition, const Tensor& on_true, const Tensor& on_false);

// Element type conversion (f32 <-> bf16, integer -> float, ...).
Tensor Cast(const Tensor& x, PrimitiveType type);

// [..., M, K] x [K, N] -> [..., M, N], or batched [B..., M, K] x [B..., K, N].
Tensor MatMul(const Tensor& a, const Tensor& b);

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& x);
Tensor operator+(const Tensor& a, double b);
Tensor operator-(const Tensor& a, double b);
Tensor operator*(const Tensor& a, double b);
Tensor operator/(const Tensor& a, double b);
Tensor operator+(double a, const Tensor& b);
Tensor operator-(double a, const Tensor& b);
Tensor operator*(double a, const Tensor& b);
Tensor operator/(double a, const Tensor& b);

}  // namespace systolic::lazy
