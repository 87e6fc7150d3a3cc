// Scanned layers: the values of one `while` over stacked weights equal the
// unrolled layers; gradients (through the reverse, rematerialising loop)
// match finite differences, captured tensors included; the program holds
// two loops with known trip counts; equal bodies compile once; bad shapes
// are errors that name the scan.
#include "core/lazy/scan.h"

#include <memory>

#include "absl/strings/match.h"
#include "core/hlo/hlo_computation.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/reduction_ops.h"
#include "core/lazy/shape_ops.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/gradient_checker.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

using ::testing::HasSubstr;
using testing::RandomLiteral;
using Inputs = std::vector<Tensor>;

// One layer: tanh(carry @ w + b) * scale, `scale` captured from outside.
Tensor Layer(const Tensor& carry, const Tensor& w, const Tensor& b, const Tensor& scale) {
  return Tanh(MatMul(carry, w) + b) * scale;
}

Tensor Scanned(const Inputs& in) {
  const Tensor& scale = in[3];
  return ScanLayers(in[0], {in[1], in[2]}, [&](const Tensor& carry, absl::Span<const Tensor> l) {
    return Layer(carry, l[0], l[1], scale);
  });
}

// The same layers one after another, each slicing its weights.
Tensor Unrolled(const Inputs& in, int64_t layers) {
  Tensor carry = in[0];
  for (int64_t l = 0; l < layers; ++l) {
    Tensor w = Reshape(Slice(in[1], 0, l, l + 1), {in[1].dim(1), in[1].dim(2)});
    Tensor b = Reshape(Slice(in[2], 0, l, l + 1), {in[2].dim(1)});
    carry = Layer(carry, w, b, in[3]);
  }
  return carry;
}

class ScanTest : public ::testing::Test {
 protected:
  std::vector<Literal> Inputs3() {
    std::vector<Literal> in;
    in.push_back(RandomLiteral({2, 4}, 1));
    in.push_back(RandomLiteral({3, 4, 4}, 2));
    in.push_back(RandomLiteral({3, 4}, 3));
    in.push_back(RandomLiteral({4}, 4, 0.5, 1.5));
    return in;
  }
  Inputs Tensors(const std::vector<Literal>& in) {
    Inputs t;
    for (const Literal& l : in) t.push_back(FromLiteral(device_, l));
    return t;
  }
  LazyDevice device_{testing::MakeTestBackend()};
};

TEST_F(ScanTest, ValuesEqualTheUnrolledLayers) {
  const std::vector<Literal> in = Inputs3();
  auto scanned = Scanned(Tensors(in)).ToLiteral();
  auto unrolled = Unrolled(Tensors(in), 3).ToLiteral();
  ASSERT_TRUE(scanned.ok()) << scanned.status();
  ASSERT_TRUE(unrolled.ok()) << unrolled.status();
  ASSERT_EQ(scanned->element_count(), unrolled->element_count());
  for (int64_t i = 0; i < scanned->element_count(); ++i) {
    EXPECT_NEAR(scanned->GetAsDouble(i), unrolled->GetAsDouble(i), 1e-12) << i;
  }
}

TEST_F(ScanTest, GradientsMatchFiniteDifferences) {
  // Carry, stacked weights and biases, and the captured scale.
  testing::GradientCheckResult r = testing::CheckGradients(device_, Scanned, Inputs3());
  EXPECT_LT(r.max_error, 1e-6) << r.worst;
}

TEST_F(ScanTest, GradientsEqualTheUnrolledOnes) {
  const std::vector<Literal> in = Inputs3();
  Inputs a = Tensors(in), b = Tensors(in);
  std::vector<Tensor> scanned = Gradients(Sum(Scanned(a)), a);
  std::vector<Tensor> unrolled = Gradients(Sum(Unrolled(b, 3)), b);
  for (size_t i = 0; i < scanned.size(); ++i) {
    auto s = scanned[i].ToLiteral();
    auto u = unrolled[i].ToLiteral();
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_TRUE(u.ok()) << u.status();
    for (int64_t e = 0; e < s->element_count(); ++e) {
      EXPECT_NEAR(s->GetAsDouble(e), u->GetAsDouble(e), 1e-12) << "input " << i << " at " << e;
    }
  }
}

TEST_F(ScanTest, AStepIsTwoLoopsWithKnownTripCounts) {
  Inputs in = Tensors(Inputs3());
  Tensor loss = Sum(Scanned(in));
  std::vector<Tensor> grads = Gradients(loss, {in[1]});
  ASSERT_TRUE(device_.MarkStep().ok());
  ASSERT_EQ(device_.executor().programs().size(), 1u);
  const HloModule& module = device_.executor().programs()[0]->module();
  int64_t loops = 0;
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->opcode() != HloOpcode::kWhile) continue;
      ++loops;
      EXPECT_THAT(instr->backend_config(), HasSubstr(R"("known_trip_count":{"n":"3"})"));
      // The body holds one layer, not three: one dot forward; the reverse
      // loop's recomputation and its two gradient products.
      int64_t dots = 0;
      for (const HloInstruction* b : instr->while_body()->instructions()) {
        dots += b->opcode() == HloOpcode::kDot;
      }
      EXPECT_TRUE(dots == 1 || dots == 3) << dots;
    }
  }
  EXPECT_EQ(loops, 2);
}

TEST_F(ScanTest, EqualBodiesCompileOnceAndAChangedBodyRecompiles) {
  for (int step = 0; step < 3; ++step) {
    Inputs in = Tensors(Inputs3());
    Tensor out = Scanned(in);
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  EXPECT_EQ(device_.executor().programs().size(), 1u);
  Inputs in = Tensors(Inputs3());
  Tensor out = ScanLayers(in[0], {in[1], in[2]}, [&](const Tensor& c, absl::Span<const Tensor> l) {
    return Sigmoid(MatMul(c, l[0]) + l[1]);
  });
  ASSERT_TRUE(device_.MarkStep().ok());
  EXPECT_EQ(device_.executor().programs().size(), 2u);
}

TEST_F(ScanTest, BadShapesAreErrorsNamingTheScan) {
  Inputs in = Tensors(Inputs3());
  Tensor wrong = ScanLayers(in[0], {in[1]}, [&](const Tensor& c, absl::Span<const Tensor> l) {
    return MatMul(Transpose(c, {1, 0}), c);  // [4, 4]: not the carry's [2, 4]
  }, "blocks");
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("blocks"));
  EXPECT_THAT(wrong.status().message(), HasSubstr("for a carry of"));
  Tensor ragged = ScanLayers(in[0], {in[1], FromLiteral(device_, RandomLiteral({2, 4}, 9))},
                             [&](const Tensor& c, absl::Span<const Tensor>) { return c; });
  ASSERT_FALSE(ragged.ok());
  EXPECT_THAT(ragged.status().message(), HasSubstr("different lengths"));
}

}  // namespace
}  // namespace systolic::lazy
