// The front end on the runtime client (the `cpu` plugin): the MLP samples'
// data-parallel and SPMD training give the evaluator backend's parameters,
// and their compile events carry the runtime compile cache's causes.
#include "core/lazy/runtime_backend.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "samples/lazy/lazy_sample.h"
#include "tests/core/lazy/lazy_test_backend.h"
#include "tests/core/lazy/training_log_compare.h"

namespace systolic::lazy {
namespace {

using ::testing::HasSubstr;

TEST(RuntimeBackendTest, MlpDdpOnTheCpuPlugin) {
  runtime::ClientOptions client_options;
  client_options.device = "cpu";
  client_options.num_devices = 4;
  absl::StatusOr<std::shared_ptr<RuntimeBackend>> backend = RuntimeBackend::Create(client_options);
  ASSERT_TRUE(backend.ok()) << backend.status();
  EXPECT_EQ((*backend)->device_count(), 4);

  const samples::LazySample* sample = samples::FindLazySample("mlp_ddp");
  samples::SampleRunOptions options;
  options.steps = 5;
  options.backend = *backend;
  absl::StatusOr<samples::TrainingLog> on_runtime = sample->run(options);
  ASSERT_TRUE(on_runtime.ok()) << on_runtime.status();
  options.backend = testing::MakeTestBackend(4);
  absl::StatusOr<samples::TrainingLog> reference = sample->run(options);
  ASSERT_TRUE(reference.ok()) << reference.status();

  EXPECT_LT(samples::testing::MaxParameterDifference(*on_runtime, *reference), 1e-6);
  std::vector<int64_t> misses;
  for (const trace::CompileEvent& e : on_runtime->compile_events) {
    if (!e.cache_hit) misses.push_back(e.step);
  }
  EXPECT_EQ(misses, (std::vector<int64_t>{0, 3}));
  const trace::CompileEvent& partial = on_runtime->compile_events[3];
  EXPECT_EQ(partial.cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_THAT(partial.cause.text, HasSubstr("now f32[4,16], before f32[8,16]"));
  EXPECT_THAT(partial.cause.text, HasSubstr("(x)"));
}

// The plugin partitions the SPMD program; the backend cuts each whole value
// into the 16 devices' shards and puts the results back together. Two
// copies at once, repeatedly: the ctest entry runtime.stress.mlp_spmd_cpu_plugin_pair.
TEST(RuntimeBackendTest, MlpSpmdOnTheCpuPlugin) {
  runtime::ClientOptions client_options;
  client_options.device = "cpu";
  client_options.num_devices = 16;
  absl::StatusOr<std::shared_ptr<RuntimeBackend>> backend = RuntimeBackend::Create(client_options);
  ASSERT_TRUE(backend.ok()) << backend.status();

  const samples::LazySample* sample = samples::FindLazySample("mlp_spmd");
  samples::SampleRunOptions options;
  options.steps = 3;
  options.backend = *backend;
  absl::StatusOr<samples::TrainingLog> on_runtime = sample->run(options);
  ASSERT_TRUE(on_runtime.ok()) << on_runtime.status();
  options.single_device = true;
  options.backend = testing::MakeTestBackend(1);
  absl::StatusOr<samples::TrainingLog> one_device = sample->run(options);
  ASSERT_TRUE(one_device.ok()) << one_device.status();
  EXPECT_LT(samples::testing::MaxParameterDifference(*on_runtime, *one_device), 1e-6);
  std::vector<int64_t> misses;
  for (const trace::CompileEvent& e : on_runtime->compile_events) {
    if (!e.cache_hit) misses.push_back(e.step);
  }
  EXPECT_EQ(misses, (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace systolic::lazy
