// mark_step(): graphs cut, hashed, compiled once and reused; recompilation
// causes as users know them; reads that force only what they need; the
// metrics report.
#include <memory>

#include "absl/strings/match.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/mesh.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/reduction_ops.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/gradient_checker.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

using ::testing::HasSubstr;

Literal Ones(std::vector<int64_t> dims) {
  Literal l(Shape(F32, dims));
  for (float& v : l.data<float>()) v = 1;
  return l;
}

class MarkStepTest : public ::testing::Test {
 protected:
  // One training-like step on a batch: loss = mean((x @ w) * scale).
  Tensor Step(const Literal& batch, double scale) {
    Tensor x = FromLiteral(device_, batch, "x");
    return Mean(MatMul(x, w_) * scale);
  }
  int64_t Compiles() const { return int64_t(device_.executor().programs().size()); }
  int64_t Executions() const { return device_.metrics().counter("Executions"); }
  LazyDevice device_{testing::MakeTestBackend()};
  Tensor w_ = FromLiteral(device_, Ones({4, 2}), "w");
};

TEST_F(MarkStepTest, OperationsAreRecordedNotRun) {
  Tensor y = MatMul(FromLiteral(device_, Ones({3, 4})), w_) + 1.0;
  EXPECT_TRUE(y.ok());
  EXPECT_TRUE(y.is_pending());
  EXPECT_EQ(y.shape().ToString(), "f32[3,2]");
  EXPECT_EQ(Compiles(), 0);
  EXPECT_EQ(Executions(), 0);
  ASSERT_TRUE(device_.MarkStep().ok());
  EXPECT_FALSE(y.is_pending());
  absl::StatusOr<Literal> value = y.ToLiteral();
  ASSERT_TRUE(value.ok()) << value.status();
  for (float v : value->data<float>()) EXPECT_EQ(v, 5.0f);
}

TEST_F(MarkStepTest, TheSameStepCompilesOnce) {
  for (int i = 0; i < 4; ++i) {
    Tensor loss = Step(Ones({8, 4}), 0.5);
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  EXPECT_EQ(Compiles(), 1);
  EXPECT_EQ(device_.metrics().counter("UncachedCompile"), 1);
  EXPECT_EQ(device_.metrics().counter("CachedCompile"), 3);
  EXPECT_EQ(device_.metrics().counter("MarkStep"), 4);
  ASSERT_EQ(device_.compile_events().size(), 4u);
  EXPECT_EQ(device_.compile_events()[0].cause.kind, trace::RecompilationKind::kFirstCompile);
  EXPECT_TRUE(device_.compile_events()[1].cache_hit);
  EXPECT_EQ(device_.compile_events()[1].program_id, 0);
  EXPECT_EQ(device_.compile_events()[0].fingerprint, device_.compile_events()[3].fingerprint);
}

TEST_F(MarkStepTest, APartialBatchIsANewInputShape) {
  { Tensor loss = Step(Ones({8, 4}), 0.5); }
  Tensor keep = Step(Ones({8, 4}), 0.5);
  ASSERT_TRUE(device_.MarkStep().ok());
  keep = Step(Ones({3, 4}), 0.5);
  ASSERT_TRUE(device_.MarkStep().ok());
  ASSERT_EQ(device_.compile_events().size(), 2u);
  const trace::CompileEvent& e = device_.compile_events()[1];
  EXPECT_FALSE(e.cache_hit);
  EXPECT_EQ(e.cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_THAT(e.cause.text, HasSubstr("now f32[3,4], before f32[8,4]"));
  EXPECT_THAT(e.cause.text, HasSubstr("(x)"));
  EXPECT_EQ(e.compared_program_id, 0);
  EXPECT_THAT(e.source, HasSubstr("mark_step_test.cc"));
}

TEST_F(MarkStepTest, AChangedScalarIsAChangedConstant) {
  Tensor loss = Step(Ones({8, 4}), 0.5);
  ASSERT_TRUE(device_.MarkStep().ok());
  loss = Step(Ones({8, 4}), 0.25);
  ASSERT_TRUE(device_.MarkStep().ok());
  const trace::CompileEvent& e = device_.compile_events()[1];
  EXPECT_EQ(e.cause.kind, trace::RecompilationKind::kChangedConstant);
  EXPECT_THAT(e.cause.text, HasSubstr("now 0.25, before 0.5"));
}

TEST_F(MarkStepTest, AScalarHeldAsDataNeverRecompiles) {
  for (double scale : {0.5, 0.25, 0.125}) {
    Tensor x = FromLiteral(device_, Ones({8, 4}), "x");
    Tensor loss = Mean(MatMul(x, w_) * ScalarData(device_, scale, F32, "scale"));
    ASSERT_TRUE(device_.MarkStep().ok());
    absl::StatusOr<double> value = loss.Item();
    ASSERT_TRUE(value.ok());
    EXPECT_DOUBLE_EQ(*value, 4 * scale);
  }
  EXPECT_EQ(Compiles(), 1);
}

TEST_F(MarkStepTest, ADifferentOpSequence) {
  Tensor loss = Step(Ones({8, 4}), 0.5);
  ASSERT_TRUE(device_.MarkStep().ok());
  {
    Tensor x = FromLiteral(device_, Ones({8, 4}), "x");
    loss = Mean(Tanh(MatMul(x, w_)) * 0.5);
  }
  ASSERT_TRUE(device_.MarkStep().ok());
  const trace::CompileEvent& e = device_.compile_events()[1];
  EXPECT_EQ(e.cause.kind, trace::RecompilationKind::kOpSequence);
  EXPECT_THAT(e.cause.text, HasSubstr("`tanh`"));
}

TEST_F(MarkStepTest, ADifferentSharding) {
  LazyDevice spmd(testing::MakeTestBackend(4), {"v5e:2x2", 1, 4});
  absl::StatusOr<Mesh> mesh = Mesh::Create({2, 2}, {"data", "model"});
  ASSERT_TRUE(mesh.ok());
  for (const PartitionSpec& spec : {PartitionSpec{"data", ""}, PartitionSpec{"", "model"}}) {
    Tensor x = FromLiteral(spmd, Ones({8, 4}), "x");
    ASSERT_TRUE(MarkSharding(x, *mesh, spec).ok());
    Tensor y = Sum(x * 2.0);
    ASSERT_TRUE(spmd.MarkStep().ok());
  }
  ASSERT_EQ(spmd.compile_events().size(), 2u);
  const trace::CompileEvent& e = spmd.compile_events()[1];
  EXPECT_EQ(e.cause.kind, trace::RecompilationKind::kArgumentSharding);
  EXPECT_EQ(e.cause.argument, 0);
  EXPECT_EQ(e.cause.now, "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}");
  EXPECT_THAT(e.cause.text, HasSubstr("now {devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}"));
  EXPECT_THAT(e.cause.text, HasSubstr("before {devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"));
}

TEST_F(MarkStepTest, ReadingAValueRunsOnlyWhatItNeeds) {
  Tensor a = MatMul(FromLiteral(device_, Ones({2, 4})), w_);
  Tensor b = Exp(a) * 3.0;
  absl::StatusOr<Literal> value = a.ToLiteral();
  ASSERT_TRUE(value.ok());
  EXPECT_FALSE(a.is_pending());
  EXPECT_TRUE(b.is_pending());
  ASSERT_EQ(device_.executor().programs().size(), 1u);
  const HloModule& module = device_.executor().programs()[0]->module();
  EXPECT_EQ(module.entry_computation()->root_instruction()->operand_count(), 1);
  EXPECT_EQ(device_.metrics().counter("SyncTensors"), 1);
  EXPECT_EQ(device_.metrics().counter("MarkStep"), 0);
}

TEST_F(MarkStepTest, LoweredProgramsNameTheUsersLayers) {
  Tensor y;
  {
    NameScope mlp("mlp");
    NameScope dense("dense_1");
    y = MatMul(FromLiteral(device_, Ones({2, 4})), w_);
  }
  ASSERT_TRUE(device_.MarkStep().ok());
  const std::string text = device_.executor().programs()[0]->module().ToString();
  EXPECT_THAT(text, HasSubstr("op_name=\"mlp/dense_1/matmul\""));
  EXPECT_THAT(text, HasSubstr("op_name=\"w\""));
  EXPECT_THAT(text, HasSubstr("HloModule SyncTensorsGraph"));
  EXPECT_THAT(text, HasSubstr("%w = f32[4,2]"));
}

TEST_F(MarkStepTest, BadOperationsAreErrorsNotCrashes) {
  Tensor bad = MatMul(FromLiteral(device_, Ones({2, 3})), w_);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("matmul"));
  Tensor worse = bad + 1.0;
  EXPECT_FALSE(worse.ok());
  EXPECT_FALSE(worse.ToLiteral().ok());
  absl::Status step = device_.MarkStep();
  EXPECT_FALSE(step.ok());
  EXPECT_THAT(std::string(step.message()), HasSubstr("matmul"));
  EXPECT_TRUE(device_.MarkStep().ok());  // reported once
}

TEST_F(MarkStepTest, MetricsReportAndRecompilationWarning) {
  for (int i = 0; i < 6; ++i) {
    Tensor loss = Step(Ones({8, 4}), i == 0 ? 1.0 : 1.0 / (i + 1));
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  const std::string report = device_.MetricsReport();
  EXPECT_THAT(report, HasSubstr("Metric: CompileTime\n  TotalSamples: 6\n  Accumulator: "));
  EXPECT_THAT(report, HasSubstr("Metric: ExecuteTime\n  TotalSamples: 6"));
  EXPECT_THAT(report, HasSubstr("Percentiles: 1%="));
  EXPECT_THAT(report, HasSubstr("Counter: UncachedCompile\n  Value: 6"));
  EXPECT_THAT(report, HasSubstr("Counter: MarkStep\n  Value: 6"));
  EXPECT_THAT(report, HasSubstr("Warning: compiled 6 times in 6 steps"));
  EXPECT_THAT(report, HasSubstr("changed constant"));
}

TEST_F(MarkStepTest, NoWarningWhenCompilesSettle) {
  for (int i = 0; i < 6; ++i) {
    Tensor loss = Step(Ones({i == 5 ? 3 : 8, 4}), 0.5);
    ASSERT_TRUE(device_.MarkStep().ok());
  }
  EXPECT_EQ(device_.metrics().counter("UncachedCompile"), 2);
  EXPECT_TRUE(device_.metrics().warnings().empty());
}

TEST(MetricsFormatTest, DurationsAndBytes) {
  EXPECT_EQ(FormatNanoseconds(1234567890), "1s234ms567.890us");
  EXPECT_EQ(FormatNanoseconds(12345678), "12ms345.678us");
  EXPECT_EQ(FormatNanoseconds(5678), "5.678us");
  EXPECT_EQ(FormatBytes(512), "512B");
  EXPECT_EQ(FormatBytes(1536), "1.50KB");
  MetricData d;
  d.samples = {5, 1, 4, 2, 3};
  EXPECT_EQ(d.Percentile(0.5), 3);
  EXPECT_EQ(d.Percentile(0.99), 5);
  EXPECT_EQ(d.Percentile(0.01), 1);
}

}  // namespace
}  // namespace systolic::lazy
