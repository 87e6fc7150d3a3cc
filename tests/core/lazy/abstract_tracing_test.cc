// Programs built by shape: abstract tensors lower to parameters without a
// value anywhere, a step far larger than this machine is traced and
// differentiated, running one is a clear error, and the flash-attention
// kernel records as one custom call whose gradient is one backward kernel.
#include "core/lazy/abstract_tracing.h"

#include "absl/strings/match.h"
#include "core/hlo/hlo_computation.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/nn_ops.h"
#include "core/lazy/reduction_ops.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::lazy {
namespace {

using ::testing::HasSubstr;

int64_t CountCalls(const HloModule& module, const std::string& config_word) {
  int64_t n = 0;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      if (instruction->opcode() == HloOpcode::kCustomCall &&
          absl::StrContains(instruction->backend_config(), config_word)) {
        ++n;
      }
    }
  }
  return n;
}

TEST(AbstractTracing, AProgramTooBigToHoldIsTracedWithoutItsValues) {
  LazyDevice device(MakeShapeOnlyBackend(1));
  // 64 GiB of f32 weights: tracing must never allocate them.
  Tensor w = AbstractTensor(device, Shape(F32, {131072, 131072}), "w");
  Tensor x = AbstractTensor(device, Shape(F32, {8, 131072}), "x");
  Tensor loss = Mean(Square(MatMul(x, w)));
  std::vector<Tensor> grads = Gradients(loss, {w});
  absl::StatusOr<std::unique_ptr<HloModule>> module = TraceProgram(device, {loss, grads[0]}, "big");
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation* entry = (*module)->entry_computation();
  ASSERT_EQ(entry->num_parameters(), 2);
  EXPECT_EQ(entry->root_instruction()->shape().tuple_shapes(1).dimensions(),
            (std::vector<int64_t>{131072, 131072}));
}

TEST(AbstractTracing, RunningAnAbstractProgramSaysToTraceIt) {
  LazyDevice device(MakeShapeOnlyBackend(1));
  Tensor x = AbstractTensor(device, Shape(F32, {4}), "x");
  Tensor y = x * 2.0;
  absl::Status status = device.MarkStep();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("timing-only"));
}

TEST(AbstractTracing, AnErrorTensorIsReportedWithItsCause) {
  LazyDevice device(MakeShapeOnlyBackend(1));
  Tensor a = AbstractTensor(device, Shape(F32, {4, 3}), "a");
  Tensor b = AbstractTensor(device, Shape(F32, {5, 2}), "b");
  absl::StatusOr<std::unique_ptr<HloModule>> module = TraceProgram(device, {MatMul(a, b)}, "bad");
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("matmul"));
}

TEST(FlashAttention, ForwardAndBackwardAreOneKernelEach) {
  LazyDevice device(MakeShapeOnlyBackend(1));
  const Shape shape(BF16, {2, 4, 1024, 128});
  Tensor q = AbstractTensor(device, shape, "q");
  Tensor k = AbstractTensor(device, shape, "k");
  Tensor v = AbstractTensor(device, shape, "v");
  Tensor out = FlashAttention(q, k, v, /*causal=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out.shape(), shape);
  Tensor loss = Sum(Cast(out, F32));
  std::vector<Tensor> grads = Gradients(loss, {q, k, v});
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      TraceProgram(device, {loss, grads[0], grads[1], grads[2]}, "attention");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(CountCalls(**module, "\"flash_attention\""), 1);
  EXPECT_EQ(CountCalls(**module, "\"flash_attention_bwd\""), 1);
  EXPECT_EQ(CountCalls(**module, "\"causal\": true"), 2);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(grads[size_t(i)].shape(), shape);
}

TEST(FlashAttention, MismatchedOperandsAreAnError) {
  LazyDevice device(MakeShapeOnlyBackend(1));
  Tensor q = AbstractTensor(device, Shape(BF16, {2, 4, 16, 128}), "q");
  Tensor k = AbstractTensor(device, Shape(BF16, {2, 4, 16, 64}), "k");
  Tensor out = FlashAttention(q, k, k, false);
  EXPECT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("head size"));
}

}  // namespace
}  // namespace systolic::lazy
