// A training step shaped like the XLA dumps users bring: partitioned already
// (8 devices, FSDP), decoder layers scanned in a forward and a backward
// loop with full remat, fused-attention custom calls. It must run as it is,
// count every layer's FLOPs and land at a plausible MFU on v5p.
#include <string>

#include "absl/strings/match.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

// The sample's sizes (samples/hlo/make_scanned_decoder_step.py).
constexpr double kLayers = 8, kBatch = 2, kSeq = 2048, kHeads = 8, kHead = 128;
constexpr double kModel = kHeads * kHead, kMlp = 4 * kModel, kVocab = 32000;
constexpr double kTokens = kBatch * kSeq;

int CountOpcode(const HloModule& module, HloOpcode opcode) {
  int n = 0;
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) n += i->opcode() == opcode ? 1 : 0;
  }
  return n;
}

TEST(ScannedStepFidelity, APartitionedScannedStepRunsAsItIsWithEveryLayerCounted) {
  auto loaded = LoadHloFile(
      std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/scanned_decoder_step_spmd.hlo", true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  std::unique_ptr<HloModule> module = std::move((*loaded)[0].module).value();
  ASSERT_TRUE(SpmdPartitioner::AlreadyPartitionedReason(*module).has_value());
  EXPECT_FALSE(SpmdPartitioner::NeedsPartitioning(*module));
  const int all_gathers = CountOpcode(*module, HloOpcode::kAllGather);

  const SpmdDeviceCounts counts = RequiredDeviceCounts(*module);
  EXPECT_EQ(counts.partitions, 8);
  auto spec = LoadChipSpec("v5p");
  ASSERT_TRUE(spec.ok()) << spec.status();
  auto slice = SliceForDevices(*spec, 8);
  ASSERT_TRUE(slice.ok()) << slice.status();
  auto timed = CompileAndTimeOnSlice(std::move(module), *slice);
  ASSERT_TRUE(timed.ok()) << timed.status();

  // Not partitioned again: no partitioner stage, no all-gather of its own
  // (the combiner may merge the program's).
  EXPECT_EQ(timed->compilation.history.FindLast("spmd-partitioner"), nullptr);
  EXPECT_LE(CountOpcode(*timed->compilation.module, HloOpcode::kAllGather) +
                CountOpcode(*timed->compilation.module, HloOpcode::kAllGatherStart),
            all_gathers);

  // Every FLOP the step does: per layer the forward matmuls (2·T·d·12d),
  // attention (4·B·H·S²·h forward, 2.5 times that backward), the backward
  // matmuls (twice the forward) and the forward again (remat); then the
  // output layer forward and backward.
  const double layer_matmuls = 2 * kTokens * kModel * (3 * kModel + kModel + 2 * kMlp);
  const double attention = 4 * kBatch * kHeads * kSeq * kSeq * kHead;
  const double per_layer = 2 * (layer_matmuls + attention) + 2 * layer_matmuls + 2.5 * attention;
  const double head = 3 * 2 * kTokens * kModel * kVocab;
  const double expected = kLayers * per_layer + head;
  const ProgramTiming& t = timed->timing.chip;
  EXPECT_NEAR(t.flops, expected, 0.05 * expected);
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();

  // Model FLOPs (6 × parameters × tokens, plus attention forward and
  // backward, remat not counted) over the step at the chip's peak.
  const double parameters = kLayers * 12 * kModel * kModel + kModel * kVocab;
  const double model_flops = 6 * parameters * kTokens + kLayers * 3.5 * attention;
  const double mfu = model_flops / (t.seconds * PeakFlopsPerSecond(*spec));
  EXPECT_GT(mfu, 0.2);
  EXPECT_LT(mfu, 0.8);
}

}  // namespace
}  // namespace systolic::device
