// MaxText's decoder traced by shape: the scaled family has the published
// sizes, its FLOPs are MaxText's count, the traced step has the scanned
// loops, flash kernels and mesh collectives a real one has, and the
// simulated v5e cells land near the published MFU with the right trends.
#include "samples/lazy/maxtext_decoder.h"

#include <cmath>

#include "absl/strings/match.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/slice.h"
#include "core/hlo/hlo_computation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "samples/lazy/decoder_prediction.h"
#include "samples/lazy/maxtext_reproduction.h"

namespace systolic::samples {
namespace {

using ::testing::HasSubstr;

TEST(MaxTextDecoder, TheScaledFamilyHasThePublishedSizes) {
  const std::pair<int64_t, double> sizes[] = {{16, 16e9}, {32, 32e9}, {64, 64e9}, {128, 128e9}};
  for (const auto& [scale, parameters] : sizes) {
    absl::StatusOr<DecoderConfig> c = MaxTextScaledDecoder(scale, 1);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_NEAR(DecoderParameterCount(*c) / parameters, 1.0, 0.05) << scale;
  }
  // 16: heads and MLP x4, embedding and layers x2.
  DecoderConfig c16 = *MaxTextScaledDecoder(16, 6);
  EXPECT_EQ(c16.embed, 4096);
  EXPECT_EQ(c16.query_heads, 64);
  EXPECT_EQ(c16.mlp, 28672);
  EXPECT_EQ(c16.layers, 32);
  EXPECT_FALSE(MaxTextScaledDecoder(12, 1).ok());
}

TEST(MaxTextDecoder, NamedConfigurationsHaveTheirPublishedSizes) {
  const std::pair<const char*, double> sizes[] = {{"llama2-7b", 6.74e9},   {"llama2-13b", 13.0e9},
                                                  {"llama2-70b", 69.0e9},  {"llama3-8b", 8.03e9},
                                                  {"llama3-70b", 70.6e9},  {"llama3.1-405b", 405.8e9}};
  for (const auto& [name, parameters] : sizes) {
    absl::StatusOr<DecoderConfig> c = NamedDecoder(name, 1, 4096);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_NEAR(DecoderParameterCount(*c) / parameters, 1.0, 0.01) << name;
    EXPECT_EQ(c->sequence, 4096);
  }
  EXPECT_EQ(NamedDecoder("llama3-8b", 1, 2048)->kv_heads, 8);  // grouped-query attention
  EXPECT_EQ(NamedDecoder("maxtext-32b", 4, 2048)->embed, 8192);
  absl::StatusOr<DecoderConfig> unknown = NamedDecoder("gpt-5", 1, 2048);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("llama3-8b"));
}

TEST(MaxTextDecoder, GroupedQueryAttentionTracesAndRuns) {
  DecoderConfig c = *NamedDecoder("llama3-8b", 1, 256);
  c.layers = 2;
  const device::Slice slice = *device::LoadSlice("v5e:4x4");
  absl::StatusOr<DecoderRunPrediction> p = PredictDecoderRun(c, DecoderMesh{1, 8, 2}, slice);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_GT(p->step_seconds, 0);
  EXPECT_GT(p->mfu, 0.05);
  EXPECT_LT(p->mfu, 1.0);
  // A mesh that does not cover the slice says so.
  absl::StatusOr<DecoderRunPrediction> wrong = PredictDecoderRun(c, DecoderMesh{1, 4, 2}, slice);
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(std::string(wrong.status().message()), HasSubstr("does not cover"));
}

TEST(MaxTextDecoder, FlopsAreSixTimesParametersTimesTokensPlusAttention) {
  const DecoderConfig c = *MaxTextScaledDecoder(16, 6);
  const double tokens = 6.0 * 2048;
  // The weights' part is 6 x (parameters in products) x tokens; norms and
  // the input embedding (a lookup) are not products, the output projection is.
  const double product_parameters =
      DecoderParameterCount(c) - 2.0 * 4096 * 32 - 4096 - 32000.0 * 4096;
  const double attention = 3.0 * 4.0 * tokens * 2048 * 64 * 128 * 32;
  EXPECT_NEAR(MaxTextTrainingFlopsPerDevice(c), 6.0 * product_parameters * tokens + attention,
              1e-6 * MaxTextTrainingFlopsPerDevice(c));
}

int64_t Count(const HloModule& module, HloOpcode opcode, const std::string& config_word = "") {
  int64_t n = 0;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* i : computation->instructions()) {
      if (i->opcode() == opcode &&
          (config_word.empty() || absl::StrContains(i->backend_config(), config_word))) {
        ++n;
      }
    }
  }
  return n;
}

TEST(MaxTextDecoder, TheTracedStepIsAScannedShardedTrainingStep) {
  DecoderConfig c = *MaxTextScaledDecoder(1, 2);
  c.layers = 4;
  c.sequence = 256;
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      TraceDecoderTrainingStep(c, DecoderMesh{2, 4, 2});
  ASSERT_TRUE(module.ok()) << module.status();
  const HloModule& m = **module;
  EXPECT_EQ(m.replica_count(), 16);
  // One loop forward, one in reverse rematerialising each layer.
  EXPECT_EQ(Count(m, HloOpcode::kWhile), 2);
  EXPECT_EQ(Count(m, HloOpcode::kCustomCall, "\"flash_attention\""), 2);  // forward, recomputed
  EXPECT_EQ(Count(m, HloOpcode::kCustomCall, "\"flash_attention_bwd\""), 1);
  EXPECT_GT(Count(m, HloOpcode::kAllGather), 0);
  EXPECT_GT(Count(m, HloOpcode::kReduceScatter), 0);
  // Gradients summed across the two slices.
  EXPECT_GT(Count(m, HloOpcode::kAllReduce), 0);
  // The weight shards: embedding split four ways over fsdp.
  const HloInstruction* embedding = nullptr;
  for (const HloInstruction* p : m.entry_computation()->parameter_instructions()) {
    if (absl::StrContains(p->metadata().op_name, "token_embedder")) embedding = p;
  }
  ASSERT_NE(embedding, nullptr);
  EXPECT_EQ(embedding->shape().dimensions(), (std::vector<int64_t>{32000, 512}));
}

TEST(MaxTextDecoder, AMeshThatDoesNotDivideTheModelIsAnError) {
  const DecoderConfig c = *MaxTextScaledDecoder(1, 1);
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      TraceDecoderTrainingStep(c, DecoderMesh{1, 3, 1});
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("fsdp"));
}

const PublishedCell& Cell(int64_t scale, int64_t slices) {
  for (const PublishedCell& cell : MaxTextV5eTable()) {
    if (cell.global_parameter_scale == scale && cell.slices == slices) return cell;
  }
  ADD_FAILURE() << "no cell " << scale << "b x " << slices;
  return MaxTextV5eTable().front();
}

TEST(MaxTextReproduction, The16BCellsLandNearThePublishedMfuAndFallWithSlices) {
  const device::ChipSpec v5e = *device::LoadChipSpec("v5e");
  absl::StatusOr<CellPrediction> one = PredictCell(Cell(16, 1), v5e);
  absl::StatusOr<CellPrediction> four = PredictCell(Cell(16, 4), v5e);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(four.ok()) << four.status();
  EXPECT_EQ(one->run.chips, 256);
  EXPECT_EQ(four->run.topology, "v5e:16x16*4");
  EXPECT_NEAR(one->run.mfu, 0.6110, 0.10);
  EXPECT_NEAR(four->run.mfu, 0.5914, 0.10);
  EXPECT_LT(four->run.mfu, one->run.mfu);
  // TFLOP/s per chip and MFU say the same thing.
  EXPECT_NEAR(one->run.tflops_per_chip * 1e12, one->run.mfu * 196.608e12, 1e9);
}

}  // namespace
}  // namespace systolic::samples
