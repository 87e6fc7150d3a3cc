// SGD with momentum and weight decay, and Adam, against their closed forms;
// the learning rate as a baked constant (recompiles when changed) or as
// device data (does not).
#include "core/lazy/adam.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/sgd.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

class OptimizerTest : public ::testing::Test {
 protected:
  // loss = sum(p * c): the gradient is c at every step.
  Tensor Loss(const Tensor& p) { return Sum(p * FromVector(device_, {0.5f, -2.0f}, {2})); }
  std::vector<float> Value(const Tensor& t) {
    absl::StatusOr<Literal> l = t.ToLiteral();
    EXPECT_TRUE(l.ok()) << l.status();
    return {l->data<float>().begin(), l->data<float>().end()};
  }
  LazyDevice device_{testing::MakeTestBackend()};
};

TEST_F(OptimizerTest, SgdWithMomentum) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto sgd = Sgd::Create({p}, {.learning_rate = 0.1, .momentum = 0.9});
  ASSERT_TRUE(sgd.ok());
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE((*sgd)->Step(Gradients(Loss(p), {p})).ok());
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  // v1 = c, v2 = 1.9 c: p = p0 - 0.1 * 2.9 c.
  std::vector<float> v = Value(p);
  EXPECT_NEAR(v[0], 1.0 - 0.29 * 0.5, 1e-6);
  EXPECT_NEAR(v[1], 2.0 + 0.29 * 2.0, 1e-6);
  EXPECT_NEAR(Value((*sgd)->momentum_buffers()[0])[0], 1.9 * 0.5, 1e-6);
  EXPECT_EQ((*sgd)->momentum_buffers()[0].name(), "p/momentum");
}

TEST_F(OptimizerTest, SgdWithWeightDecay) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto sgd = Sgd::Create({p}, {.learning_rate = 0.1, .weight_decay = 0.5});
  ASSERT_TRUE((*sgd)->Step(Gradients(Loss(p), {p})).ok());
  ASSERT_TRUE(device_.MarkStep().ok());
  std::vector<float> v = Value(p);
  EXPECT_NEAR(v[0], 1.0 - 0.1 * (0.5 + 0.5 * 1.0), 1e-6);
  EXPECT_NEAR(v[1], 2.0 - 0.1 * (-2.0 + 0.5 * 2.0), 1e-6);
}

TEST_F(OptimizerTest, AdamTakesSignSizedStepsOnAConstantGradient) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto adam = Adam::Create({p}, {.learning_rate = 0.01});
  ASSERT_TRUE(adam.ok());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE((*adam)->Step(Gradients(Loss(p), {p})).ok());
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  // Bias-corrected moments are c and c^2: each step is lr * sign(c).
  std::vector<float> v = Value(p);
  EXPECT_NEAR(v[0], 1.0 - 0.03, 1e-5);
  EXPECT_NEAR(v[1], 2.0 + 0.03, 1e-5);
  // The step count lives on the device: one program for every step.
  EXPECT_EQ(device_.metrics().counter("UncachedCompile"), 1);
}

TEST_F(OptimizerTest, AdamWDecouplesWeightDecay) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto adam = Adam::Create({p}, {.learning_rate = 0.01, .weight_decay = 0.1});
  ASSERT_TRUE((*adam)->Step(Gradients(Loss(p), {p})).ok());
  ASSERT_TRUE(device_.MarkStep().ok());
  std::vector<float> v = Value(p);
  EXPECT_NEAR(v[0], 1.0 - 0.01 * 0.1 * 1.0 - 0.01, 1e-5);
  EXPECT_NEAR(v[1], 2.0 - 0.01 * 0.1 * 2.0 + 0.01, 1e-5);
}

TEST_F(OptimizerTest, ABakedLearningRateRecompilesWhenChanged) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto sgd = Sgd::Create({p}, {.learning_rate = 0.1});
  for (double lr : {0.1, 0.05}) {
    (*sgd)->set_learning_rate(lr);
    ASSERT_TRUE((*sgd)->Step(Gradients(Loss(p), {p})).ok());
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  ASSERT_EQ(device_.compile_events().size(), 2u);
  EXPECT_EQ(device_.compile_events()[1].cause.kind, trace::RecompilationKind::kChangedConstant);
  EXPECT_NEAR(Value(p)[0], 1.0 - 0.15 * 0.5, 1e-6);
}

TEST_F(OptimizerTest, ALearningRateHeldAsDataDoesNot) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto sgd = Sgd::Create({p}, {.learning_rate = 0.1, .learning_rate_as_data = true});
  for (double lr : {0.1, 0.05, 0.025}) {
    (*sgd)->set_learning_rate(lr);
    ASSERT_TRUE((*sgd)->Step(Gradients(Loss(p), {p})).ok());
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  EXPECT_EQ(device_.metrics().counter("UncachedCompile"), 1);
  EXPECT_NEAR(Value(p)[0], 1.0 - 0.175 * 0.5, 1e-6);
}

TEST_F(OptimizerTest, GradientCountMustMatch) {
  Tensor p = FromVector(device_, {1.0f, 2.0f}, {2}, "p");
  auto sgd = Sgd::Create({p}, {});
  EXPECT_FALSE((*sgd)->Step({}).ok());
}

}  // namespace
}  // namespace systolic::lazy
