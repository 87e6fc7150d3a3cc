// Every differentiable operation of the front end, its autodiff gradient
// checked against central finite differences (f64 inputs, relative error
// below 1e-6 unless stated).
#include "core/lazy/autodiff.h"

#include <memory>

#include "core/lazy/creation_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/shape_ops.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/gradient_checker.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

using testing::CheckGradients;
using testing::RandomLiteral;
using Inputs = std::vector<Tensor>;

Literal R(std::vector<int64_t> dims, int seed, double low = -1, double high = 1) {
  return RandomLiteral(std::move(dims), seed, low, high);
}

Literal Labels(std::vector<int32_t> values) {
  return Literal::CreateR1<int32_t>(absl::Span<const int32_t>(values));
}

class AutodiffTest : public ::testing::Test {
 protected:
  void Check(const testing::TensorFunction& f, std::vector<Literal> inputs,
             std::vector<bool> differentiate = {}, double tolerance = 1e-6,
             double epsilon = 1e-6) {
    testing::GradientCheckResult r = CheckGradients(device_, f, inputs, differentiate, epsilon);
    EXPECT_LT(r.max_error, tolerance) << r.worst;
  }
  LazyDevice device_{testing::MakeTestBackend()};
};

std::vector<Literal> L(std::initializer_list<Literal*> ls) {
  std::vector<Literal> out;
  for (Literal* l : ls) out.push_back(std::move(*l));
  return out;
}

#define INPUTS(...) L({__VA_ARGS__})

TEST_F(AutodiffTest, ElementwiseBinary) {
  Literal a = R({2, 3}, 1), b = R({2, 3}, 2), c = R({2, 3}, 3, 0.5, 2), d = R({2, 3}, 4, 0.5, 2);
  Check([](const Inputs& x) { return x[0] + x[1]; }, INPUTS(&a, &b));
  a = R({2, 3}, 1), b = R({2, 3}, 2);
  Check([](const Inputs& x) { return x[0] - x[1]; }, INPUTS(&a, &b));
  a = R({2, 3}, 1), b = R({2, 3}, 2);
  Check([](const Inputs& x) { return x[0] * x[1]; }, INPUTS(&a, &b));
  Check([](const Inputs& x) { return x[0] / x[1]; }, INPUTS(&c, &d));
  c = R({2, 3}, 3, 0.5, 2), d = R({2, 3}, 4, 0.5, 2);
  Check([](const Inputs& x) { return Pow(x[0], x[1]); }, INPUTS(&c, &d));
}

TEST_F(AutodiffTest, MaximumAndMinimum) {
  Literal a = R({3, 4}, 5), b = R({3, 4}, 6);
  Check([](const Inputs& x) { return Maximum(x[0], x[1]); }, INPUTS(&a, &b));
  a = R({3, 4}, 5), b = R({3, 4}, 6);
  Check([](const Inputs& x) { return Minimum(x[0], x[1]); }, INPUTS(&a, &b));
}

TEST_F(AutodiffTest, BroadcastingBinary) {
  Literal a = R({2, 3}, 7), b = R({3}, 8);
  Check([](const Inputs& x) { return x[0] * x[1]; }, INPUTS(&a, &b));
  a = R({2, 1, 3}, 9), b = R({4, 1}, 10);
  Check([](const Inputs& x) { return x[0] + x[1]; }, INPUTS(&a, &b));
  a = R({2, 3}, 11);
  Check([](const Inputs& x) { return x[0] * 3.0 - 1.5 / (x[0] + 4.0); }, INPUTS(&a));
}

TEST_F(AutodiffTest, ElementwiseUnary) {
  Literal x = R({2, 3}, 12), pos = R({2, 3}, 13, 0.2, 2);
  Check([](const Inputs& v) { return Neg(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Exp(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Tanh(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Sigmoid(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Erf(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Cos(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Square(v[0]); }, L({&x}));
  x = R({2, 3}, 12);
  Check([](const Inputs& v) { return Abs(v[0]); }, L({&x}));
  Check([](const Inputs& v) { return Log(v[0]); }, L({&pos}));
  pos = R({2, 3}, 13, 0.2, 2);
  Check([](const Inputs& v) { return Sqrt(v[0]); }, L({&pos}));
  pos = R({2, 3}, 13, 0.2, 2);
  Check([](const Inputs& v) { return Rsqrt(v[0]); }, L({&pos}));
}

TEST_F(AutodiffTest, WhereAndComparisons) {
  Literal a = R({3, 3}, 14), b = R({3, 3}, 15);
  Check([](const Inputs& x) { return Where(Greater(x[0], x[1]), x[0] * x[1], x[1]); },
        INPUTS(&a, &b));
}

TEST_F(AutodiffTest, Casts) {
  // f32 rounding limits the finite differences' precision.
  Literal a = R({2, 3}, 16);
  Check([](const Inputs& x) { return Cast(Cast(x[0], F32) * Cast(x[0], F32), F64); }, L({&a}),
        {}, 1e-3, 1e-3);
  a = R({2, 3}, 16);
  Check([](const Inputs& x) { return Cast(Cast(x[0], BF16), F64); }, L({&a}), {}, 5e-2, 1e-1);
}

TEST_F(AutodiffTest, MatMul) {
  Literal a = R({3, 4}, 17), b = R({4, 2}, 18);
  Check([](const Inputs& x) { return MatMul(x[0], x[1]); }, INPUTS(&a, &b));
  a = R({2, 3, 4}, 19), b = R({4, 5}, 20);
  Check([](const Inputs& x) { return MatMul(x[0], x[1]); }, INPUTS(&a, &b));
  a = R({2, 3, 4}, 21), b = R({2, 4, 5}, 22);
  Check([](const Inputs& x) { return MatMul(x[0], x[1]); }, INPUTS(&a, &b));
  a = R({2, 2, 3, 4}, 23), b = R({2, 2, 5, 4}, 24);
  Check([](const Inputs& x) { return MatMul(x[0], TransposeLast2(x[1])); }, INPUTS(&a, &b));
}

TEST_F(AutodiffTest, DataMovement) {
  Literal a = R({2, 3}, 25);
  Check([](const Inputs& x) { return BroadcastTo(x[0], {4, 2, 3}); }, L({&a}));
  a = R({2, 1, 3}, 26);
  Check([](const Inputs& x) { return BroadcastTo(x[0], {2, 5, 3}); }, L({&a}));
  a = R({2, 3, 4}, 27);
  Check([](const Inputs& x) { return Reshape(x[0], {4, -1}); }, L({&a}));
  a = R({2, 3, 4}, 27);
  Check([](const Inputs& x) { return Transpose(x[0], {2, 0, 1}); }, L({&a}));
  a = R({2, 3, 4}, 27);
  Check([](const Inputs& x) { return Flatten(Unsqueeze(x[0], 1)); }, L({&a}));
  a = R({2, 1, 4}, 27);
  Check([](const Inputs& x) { return Squeeze(x[0], 1); }, L({&a}));
}

TEST_F(AutodiffTest, SlicingAndIndexing) {
  Literal a = R({5, 6}, 28);
  Check([](const Inputs& x) { return Slice(x[0], 1, 1, 6, 2); }, L({&a}));
  a = R({5, 6}, 28);
  Check([](const Inputs& x) { return Slice(x[0], 0, -3, 5); }, L({&a}));
  a = R({5, 6}, 28);
  Check([](const Inputs& x) { return Index(x[0], 1, 4); }, L({&a}));
  a = R({5, 3}, 29);
  Literal idx = Labels({4, 0, 4, 2});
  Check([](const Inputs& x) { return IndexSelect(x[0], 0, x[1]); }, INPUTS(&a, &idx),
        {true, false});
  a = R({3, 5}, 30);
  idx = Labels({1, 1, 3});
  Check([](const Inputs& x) { return IndexSelect(x[0], 1, x[1]); }, INPUTS(&a, &idx),
        {true, false});
}

TEST_F(AutodiffTest, Concatenation) {
  Literal a = R({2, 3}, 31), b = R({2, 2}, 32), c = R({2, 1}, 33);
  Check([](const Inputs& x) { return Concat({x[0], x[1], x[2]}, 1); }, INPUTS(&a, &b, &c));
}

TEST_F(AutodiffTest, Reductions) {
  Literal a = R({3, 4, 2}, 34);
  Check([](const Inputs& x) { return Sum(x[0], {1}); }, L({&a}));
  a = R({3, 4, 2}, 34);
  Check([](const Inputs& x) { return Mean(x[0], {0, 2}, true); }, L({&a}));
  a = R({3, 4, 2}, 34);
  Check([](const Inputs& x) { return Max(x[0], {1}); }, L({&a}));
  a = R({3, 4, 2}, 34);
  Check([](const Inputs& x) { return Min(x[0], {-1}, true); }, L({&a}));
  a = R({3, 4, 2}, 34);
  Check([](const Inputs& x) { return Sum(x[0]); }, L({&a}));
}

TEST_F(AutodiffTest, Activations) {
  Literal a = R({3, 5}, 35);
  Check([](const Inputs& x) { return Relu(x[0]); }, L({&a}));
  a = R({3, 5}, 35, -3, 3);
  Check([](const Inputs& x) { return Gelu(x[0]); }, L({&a}));
  a = R({3, 5}, 35, -3, 3);
  Check([](const Inputs& x) { return Gelu(x[0], /*tanh_approximation=*/true); }, L({&a}));
}

TEST_F(AutodiffTest, SoftmaxFamily) {
  Literal a = R({3, 5}, 36, -3, 3);
  Check([](const Inputs& x) { return Softmax(x[0], -1); }, L({&a}));
  a = R({3, 5}, 36, -3, 3);
  Check([](const Inputs& x) { return Softmax(x[0], 0); }, L({&a}));
  a = R({3, 5}, 36, -3, 3);
  Check([](const Inputs& x) { return LogSoftmax(x[0], -1); }, L({&a}));
  a = R({4, 5}, 37, -2, 2);
  Literal labels = Labels({1, 0, 4, 2});
  Check([](const Inputs& x) { return CrossEntropy(x[0], x[1]); }, INPUTS(&a, &labels),
        {true, false});
}

TEST_F(AutodiffTest, LayerNorm) {
  Literal x = R({3, 6}, 38, -2, 2), gamma = R({6}, 39, 0.5, 1.5), beta = R({6}, 40);
  Check([](const Inputs& v) { return LayerNorm(v[0], v[1], v[2]); }, INPUTS(&x, &gamma, &beta));
}

TEST_F(AutodiffTest, Linear) {
  Literal x = R({4, 3}, 41), w = R({3, 2}, 42), b = R({2}, 43);
  Check([](const Inputs& v) { return Linear(v[0], v[1], v[2]); }, INPUTS(&x, &w, &b));
}

TEST_F(AutodiffTest, Conv2d) {
  Literal x = R({2, 3, 5, 5}, 44), w = R({4, 3, 3, 3}, 45);
  Check([](const Inputs& v) { return Conv2d(v[0], v[1], 1, 1); }, INPUTS(&x, &w));
  x = R({2, 3, 6, 6}, 46), w = R({2, 3, 3, 3}, 47);
  Check([](const Inputs& v) { return Conv2d(v[0], v[1], 2, 1); }, INPUTS(&x, &w));
  x = R({1, 2, 7, 7}, 48), w = R({3, 2, 2, 2}, 49);
  Check([](const Inputs& v) { return Conv2d(v[0], v[1], 3, 0); }, INPUTS(&x, &w));
}

TEST_F(AutodiffTest, Pooling) {
  Literal x = R({2, 2, 4, 4}, 50);
  Check([](const Inputs& v) { return MaxPool2d(v[0], 2, 2); }, L({&x}));
  x = R({1, 2, 5, 5}, 51);
  Check([](const Inputs& v) { return MaxPool2d(v[0], 3, 2, 1); }, L({&x}));
  x = R({2, 2, 4, 4}, 52);
  Check([](const Inputs& v) { return AvgPool2d(v[0], 2, 2); }, L({&x}));
  x = R({1, 2, 6, 6}, 53);
  Check([](const Inputs& v) { return AvgPool2d(v[0], 3, 2, 1); }, L({&x}));
}

TEST_F(AutodiffTest, Composite) {
  // A two-layer network with every kind of op on the path.
  Literal x = R({4, 3}, 54), w1 = R({3, 5}, 55), w2 = R({5, 2}, 56);
  Check(
      [](const Inputs& v) {
        Tensor h = Gelu(MatMul(v[0], v[1]));
        return Softmax(MatMul(h, v[2]) * 2.0, -1);
      },
      INPUTS(&x, &w1, &w2));
}

TEST_F(AutodiffTest, StopGradientBlocksTheGradient) {
  Tensor x = FromLiteral(device_, R({3}, 57));
  std::vector<Tensor> g = Gradients(Sum(x * StopGradient(x)), {x});
  absl::StatusOr<Literal> grad = g[0].ToLiteral();
  absl::StatusOr<Literal> value = x.ToLiteral();
  ASSERT_TRUE(grad.ok()) << grad.status();
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(grad->GetAsDouble(i), value->GetAsDouble(i));
}

TEST_F(AutodiffTest, TheCheckerCatchesAWrongGradient) {
  // x * stop_gradient(x) has autodiff gradient x but numeric gradient 2x.
  Literal x = R({4}, 62, 1, 2);
  testing::GradientCheckResult r = CheckGradients(
      device_, [](const Inputs& v) { return v[0] * StopGradient(v[0]); }, L({&x}));
  EXPECT_GT(r.max_error, 0.3);
}

TEST_F(AutodiffTest, UnusedInputGetsZeros) {
  Tensor x = FromLiteral(device_, R({3}, 58));
  Tensor unused = FromLiteral(device_, R({2, 2}, 59));
  std::vector<Tensor> g = Gradients(Sum(x * x), {unused});
  absl::StatusOr<Literal> grad = g[0].ToLiteral();
  ASSERT_TRUE(grad.ok()) << grad.status();
  EXPECT_EQ(grad->shape().dimensions(), (std::vector<int64_t>{2, 2}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(grad->GetAsDouble(i), 0);
}

TEST_F(AutodiffTest, GradientOpsAreNamedAfterTheForwardOps) {
  Tensor x = FromLiteral(device_, R({2, 3}, 60), "x");
  Tensor w = FromLiteral(device_, R({3, 4}, 61), "w");
  Tensor y;
  {
    NameScope mlp("mlp");
    NameScope dense("dense_1");
    y = MatMul(x, w);
  }
  std::vector<Tensor> g = Gradients(Sum(y), {w});
  ASSERT_TRUE(g[0].ok());
  EXPECT_EQ(g[0].node()->metadata().op_name.rfind("gradients/mlp/dense_1/matmul/", 0), 0u)
      << g[0].node()->metadata().op_name;
}

}  // namespace
}  // namespace systolic::lazy
