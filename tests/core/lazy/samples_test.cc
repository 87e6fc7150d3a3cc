// The lazy samples train (their loss falls), compile exactly what they
// should, and their distributed runs give the parameters of a single-device
// run of the same steps.
#include <cmath>
#include <set>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "samples/lazy/lazy_sample.h"
#include "tests/core/lazy/lazy_test_backend.h"
#include "tests/core/lazy/training_log_compare.h"

namespace systolic::samples {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::StatusOr<TrainingLog> RunSample(const std::string& name, int64_t steps, bool single,
                                      int64_t devices, bool f32_matmuls = false) {
  const LazySample* sample = FindLazySample(name);
  if (sample == nullptr) return absl::NotFoundError(name);
  SampleRunOptions options;
  options.steps = steps;
  options.single_device = single;
  options.f32_matmuls = f32_matmuls;
  options.backend = lazy::testing::MakeTestBackend(single ? 1 : devices);
  return sample->run(options);
}

TEST(LazySamplesTest, Registry) {
  std::vector<std::string> names;
  for (const LazySample& s : LazySamples()) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cnn_edge", "mlp_ddp", "mlp_spmd",
                                             "transformer_fsdp", "transformer_scan"}));
  EXPECT_EQ(FindLazySample("mlp_ddp")->topology, "v5e:2x2");
  EXPECT_EQ(FindLazySample("transformer_fsdp")->topology, "v4:2x2x2");
  EXPECT_EQ(FindLazySample("mlp_spmd")->topology, "v5e:4x4");
  EXPECT_EQ(FindLazySample("cnn_edge")->topology, "edge");
  EXPECT_EQ(FindLazySample("transformer_scan")->topology, "v5p:2x2");
  EXPECT_EQ(FindLazySample("nope"), nullptr);
}

TEST(LazySamplesTest, MlpDdpCompilesForTheFirstStepAndThePartialBatchOnly) {
  absl::StatusOr<TrainingLog> log = RunSample("mlp_ddp", 8, false, 4);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->compile_events.size(), 8u);
  std::vector<int64_t> misses;
  for (const trace::CompileEvent& e : log->compile_events) {
    if (!e.cache_hit) misses.push_back(e.step);
  }
  EXPECT_EQ(misses, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(log->compile_events[0].cause.kind, trace::RecompilationKind::kFirstCompile);
  const trace::CompileEvent& partial = log->compile_events[3];
  EXPECT_EQ(partial.cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_THAT(partial.cause.text, HasSubstr("(x): now f32[4,16], before f32[8,16]"));
  EXPECT_THAT(partial.cause.text, HasSubstr("(and 1 more arguments)"));  // the labels
  EXPECT_THAT(partial.source, HasSubstr("mlp_ddp_sample.cc"));
  // After the partial batch the full batches reuse the first program.
  EXPECT_EQ(log->compile_events[4].program_id, 0);
  EXPECT_EQ(log->compile_events[7].program_id, 1);
  EXPECT_THAT(log->metrics_report, HasSubstr("Counter: UncachedCompile\n  Value: 2"));
  EXPECT_THAT(log->metrics_report, HasSubstr("Counter: CachedCompile\n  Value: 6"));
  EXPECT_THAT(log->metrics_report, HasSubstr("Metric: CompileTime\n  TotalSamples: 2"));
  EXPECT_THAT(log->metrics_report, HasSubstr("Metric: ExecuteTime\n  TotalSamples: 8"));
  EXPECT_TRUE(log->warnings.empty());
  // Same batches one epoch later: lower loss.
  for (int b = 0; b < 4; ++b) EXPECT_LT(log->steps[4 + b].loss, log->steps[b].loss) << b;
  EXPECT_EQ(log->steps[3].batch_size, 16);
  ASSERT_EQ(log->programs.size(), 2u);
  EXPECT_THAT(log->programs[0], HasSubstr("op_name=\"mlp/dense_1/matmul\""));
  EXPECT_THAT(log->programs[0], HasSubstr("replica_groups={{0,1,2,3}}"));
}

TEST(LazySamplesTest, MlpDdpMatchesOneDevice) {
  absl::StatusOr<TrainingLog> ddp = RunSample("mlp_ddp", 5, false, 4);
  absl::StatusOr<TrainingLog> one = RunSample("mlp_ddp", 5, true, 1);
  ASSERT_TRUE(ddp.ok()) << ddp.status();
  ASSERT_TRUE(one.ok()) << one.status();
  // f32 sums in another order: equal to a few ulps of the parameters.
  EXPECT_LT(testing::MaxParameterDifference(*ddp, *one), 1e-6);
  for (size_t i = 0; i < ddp->steps.size(); ++i) {
    EXPECT_NEAR(ddp->steps[i].loss, one->steps[i].loss, 1e-5);
  }
}

TEST(LazySamplesTest, TransformerFsdpTrains) {
  absl::StatusOr<TrainingLog> fsdp = RunSample("transformer_fsdp", 8, false, 8);
  absl::StatusOr<TrainingLog> one = RunSample("transformer_fsdp", 8, true, 1);
  ASSERT_TRUE(fsdp.ok()) << fsdp.status();
  ASSERT_TRUE(one.ok()) << one.status();
  for (int b = 0; b < 4; ++b) EXPECT_LT(fsdp->steps[4 + b].loss, fsdp->steps[b].loss) << b;
  // With bf16 products the weight gradients are rounded to bf16 once on one
  // device but per replica under FSDP (then summed in f32), so runs differ
  // by bf16 roundings (2^-8 relative) that Adam carries on: the losses agree
  // to 1e-3 relative.
  for (size_t i = 0; i < fsdp->steps.size(); ++i) {
    EXPECT_NEAR(fsdp->steps[i].loss, one->steps[i].loss, 1e-3 * one->steps[i].loss) << i;
  }
  EXPECT_THAT(fsdp->programs[0], HasSubstr("all-gather("));
  EXPECT_THAT(fsdp->programs[0], HasSubstr("reduce-scatter("));
  EXPECT_THAT(fsdp->programs[0], HasSubstr("bf16["));
  EXPECT_THAT(fsdp->programs[0], HasSubstr("op_name=\"transformer/attention/query/matmul\""));
  int64_t misses = 0;
  for (const trace::CompileEvent& e : fsdp->compile_events) misses += !e.cache_hit;
  EXPECT_EQ(misses, 1);
}

TEST(LazySamplesTest, TransformerFsdpMatchesOneDeviceInF32) {
  absl::StatusOr<TrainingLog> fsdp = RunSample("transformer_fsdp", 8, false, 8, true);
  absl::StatusOr<TrainingLog> one = RunSample("transformer_fsdp", 8, true, 1, true);
  ASSERT_TRUE(fsdp.ok()) << fsdp.status();
  ASSERT_TRUE(one.ok()) << one.status();
  // Only the order of f32 sums differs (per replica, then reduce-scatter):
  // a few ulps of gradients summed over up to 256 terms, which Adam's
  // division by sqrt(v) carries into the parameters over 8 steps.
  EXPECT_LT(testing::MaxParameterDifference(*fsdp, *one), 4e-6) << fsdp->ToString() << one->ToString();
  EXPECT_THAT(fsdp->programs[0], ::testing::Not(HasSubstr("bf16[")));
}

TEST(LazySamplesTest, TransformerScanTrainsAndMatchesOneDeviceInF32) {
  absl::StatusOr<TrainingLog> ddp = RunSample("transformer_scan", 6, false, 4, true);
  absl::StatusOr<TrainingLog> one = RunSample("transformer_scan", 6, true, 1, true);
  ASSERT_TRUE(ddp.ok()) << ddp.status();
  ASSERT_TRUE(one.ok()) << one.status();
  for (int b = 0; b < 3; ++b) EXPECT_LT(ddp->steps[3 + b].loss, ddp->steps[b].loss) << b;
  EXPECT_LT(testing::MaxParameterDifference(*ddp, *one), 1e-5) << ddp->ToString() << one->ToString();
  int64_t misses = 0;
  for (const trace::CompileEvent& e : ddp->compile_events) misses += !e.cache_hit;
  EXPECT_EQ(misses, 1);
}

// The step is one loop over the layers forward and one in reverse backward,
// and what the device runs per step is the model's FLOPs (6 x parameters x
// tokens + attention) plus the one forward the backward loop recomputes.
TEST(LazySamplesTest, TransformerScanIsTwoLoopsAndRunsTheModelFlops) {
  absl::StatusOr<TrainingLog> log = RunSample("transformer_scan", 1, false, 4);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->programs.size(), 1u);
  auto module = ParseAndReturnVerifiedModule(log->programs[0]);
  ASSERT_TRUE(module.ok()) << module.status();
  int64_t loops = 0;
  for (const HloComputation* c : (*module)->computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->opcode() != HloOpcode::kWhile) continue;
      ++loops;
      EXPECT_THAT(instr->backend_config(), HasSubstr(R"({"known_trip_count":{"n":"4"}})"));
    }
  }
  EXPECT_EQ(loops, 2);

  auto chip = device::LoadChipSpec("v5p");
  ASSERT_TRUE(chip.ok()) << chip.status();
  auto run = device::CompileAndRun(*std::move(module), *chip, {});
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->TargetName(), "v5p:2x2");
  // The matrix products' rows (dots, and fusions around one); loops' rows
  // total their bodies' and are not counted again.
  std::set<std::string> products;
  for (const HloComputation* c : run->compilation().module->computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      bool product = instr->opcode() == HloOpcode::kDot;
      if (instr->opcode() == HloOpcode::kFusion) {
        for (const HloInstruction* fused : instr->fused_instructions_computation()->instructions()) {
          product |= fused->opcode() == HloOpcode::kDot;
        }
      }
      if (product) products.insert(instr->name());
    }
  }
  double matmul_flops = 0;
  for (const device::OpTiming& op : run->timing().ops) {
    if (products.contains(op.instruction)) matmul_flops += op.flops;
  }
  // Per chip: a quarter of the global batch. The backward loop recomputes
  // each layer's forward (2 x parameters x tokens, and the attention's
  // forward products) but for the MLP's down projection, whose output only
  // feeds the residual sum and so no gradient: the compiler drops it.
  const double model = FindLazySample("transformer_scan")->model_flops_per_step;
  const double layers = 4, batch = 8, tokens = 16, width = 64, hidden = 256;
  const double layer_parameters = 4 * width * width + 2 * width * hidden;
  const double recomputed = layers * (2 * layer_parameters - 2 * width * hidden) * batch * tokens +
                            layers * batch * 4 * tokens * tokens * width;
  const double expected = (model + recomputed) / 4;
  EXPECT_NEAR(matmul_flops, expected, 0.05 * expected)
      << "model " << model << ", recomputed " << recomputed;
  EXPECT_GE(run->timing().flops, matmul_flops);
}

TEST(LazySamplesTest, MlpSpmdTrainsAndMatchesOneDevice) {
  absl::StatusOr<TrainingLog> spmd = RunSample("mlp_spmd", 8, false, 16);
  absl::StatusOr<TrainingLog> one = RunSample("mlp_spmd", 8, true, 1);
  ASSERT_TRUE(spmd.ok()) << spmd.status();
  ASSERT_TRUE(one.ok()) << one.status();
  for (int b = 0; b < 4; ++b) EXPECT_LT(spmd->steps[4 + b].loss, spmd->steps[b].loss) << b;
  EXPECT_LT(testing::MaxParameterDifference(*spmd, *one), 1e-6);
  EXPECT_EQ(spmd->devices, 16);
  const std::string& text = spmd->programs[0];
  EXPECT_THAT(text, HasSubstr("num_partitions=16"));
  // x split over data and replicated over model; w1 split by columns.
  EXPECT_THAT(text, HasSubstr("sharding={devices=[4,1,4]0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 "
                              "last_tile_dim_replicate}"));
  EXPECT_THAT(text, HasSubstr("sharding={devices=[1,4,4]0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15 "
                              "last_tile_dim_replicate}"));
  EXPECT_THAT(text, HasSubstr("custom_call_target=\"Sharding\""));
  int64_t misses = 0;
  for (const trace::CompileEvent& e : spmd->compile_events) misses += !e.cache_hit;
  EXPECT_EQ(misses, 1);
}

// The SPMD run really runs partitioned: each of the 16 devices holds its
// shards, and the partitioner put in the collectives the layouts need.
TEST(LazySamplesTest, MlpSpmdRunsThePartitionersProgram) {
  absl::StatusOr<TrainingLog> log = RunSample("mlp_spmd", 1, false, 16);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->device_programs.size(), 1u);
  const std::string& device_program = log->device_programs[0];
  // x: 64 rows over 4 `data` shards; w1: 512 hidden units over 4 `model` shards.
  EXPECT_THAT(device_program, HasSubstr("%x = f32[16,128] parameter("));
  EXPECT_THAT(device_program, HasSubstr("%mlp.dense_1.weight = f32[128,128] parameter("));
  EXPECT_THAT(device_program, HasSubstr("all-reduce("));
  EXPECT_THAT(device_program, Not(HasSubstr("custom_call_target=\"Sharding\"")));
}

TEST(LazySamplesTest, CnnEdgeTrains) {
  absl::StatusOr<TrainingLog> log = RunSample("cnn_edge", 24, false, 1);
  ASSERT_TRUE(log.ok()) << log.status();
  // The four batches' losses in the first epoch and in the sixth.
  double first = 0, last = 0;
  for (int b = 0; b < 4; ++b) {
    first += log->steps[b].loss;
    last += log->steps[20 + b].loss;
  }
  EXPECT_LT(last, 0.7 * first) << log->ToString();
  EXPECT_THAT(log->programs[0], HasSubstr("convolution("));
  EXPECT_THAT(log->programs[0], HasSubstr("select-and-scatter("));
  EXPECT_THAT(log->programs[0], HasSubstr("op_name=\"cnn/conv_1/conv2d\""));
  EXPECT_THAT(log->ToString(), HasSubstr("cnn_edge on edge"));
}

}  // namespace
}  // namespace systolic::samples
