// The compiler's cost model from the device's own timing model.
#include "core/device/device_cost_model.h"

#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

constexpr char kModule[] = R"(
HloModule m
ENTRY main {
  a = bf16[4096,4096] parameter(0)
  b = bf16[4096,4096] parameter(1)
  d = f32[4096,4096] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  x = f32[4096,4096] parameter(2)
  ROOT s = f32[4096,4096] add(d, x)
})";

const HloInstruction* Find(const HloModule& module, const std::string& name) {
  for (const HloInstruction* i : module.entry_computation()->instructions()) {
    if (i->name() == name) return i;
  }
  return nullptr;
}

TEST(DeviceCostModelTest, MatmulNearPeakAndElementwiseAtHbmBandwidth) {
  auto spec = LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto module = ParseAndReturnVerifiedModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  const DeviceCostModel model(*spec);
  EXPECT_EQ(model.name(), "device:v4");
  EXPECT_EQ(model.OnChipMemoryBytes(), VmemBytes(*spec) / 2);

  EXPECT_EQ(model.EstimateInstruction(*Find(**module, "a")).seconds, 0) << "parameters are free";

  const CostEstimate dot = model.EstimateInstruction(*Find(**module, "d"));
  const double flops = 2.0 * 4096 * 4096 * 4096;
  EXPECT_DOUBLE_EQ(dot.flops, flops);
  EXPECT_GE(dot.seconds, flops / PeakFlopsPerSecond(*spec));
  EXPECT_LE(dot.seconds, 2 * flops / PeakFlopsPerSecond(*spec));

  const CostEstimate add = model.EstimateInstruction(*Find(**module, "s"));
  const double bytes = 3.0 * 4096 * 4096 * 4;
  EXPECT_NEAR(add.seconds, bytes / HbmBytesPerSecond(*spec), 0.1 * bytes / HbmBytesPerSecond(*spec));

  // Fusing the add into the dot saves its round trip through HBM.
  FusionCandidate fused;
  fused.instructions = {Find(**module, "d"), Find(**module, "s")};
  fused.outputs = {Find(**module, "s")};
  EXPECT_LT(model.EstimateFusion(fused).seconds, dot.seconds + add.seconds);
  EXPECT_GT(model.OnChipFootprint(fused), 0);
  EXPECT_LE(model.OnChipFootprint(fused), model.OnChipMemoryBytes());
}

// A tiny kernel is all fixed cost (issue, first load's and last store's DMA
// latency); the estimate the compiler fuses by charges what the simulator
// does.
TEST(DeviceCostModelTest, TinyKernelCostsWhatTheSimulatorCharges) {
  auto spec = LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto module = ParseAndReturnVerifiedModule(R"(
HloModule tiny
ENTRY main {
  a = f32[8] parameter(0)
  ROOT n = f32[8] negate(a)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  const double estimate =
      DeviceCostModel(*spec).EstimateInstruction(*Find(**module, "n")).seconds;
  auto timing = TimeCompiledModule(**module, *spec);
  ASSERT_TRUE(timing.ok()) << timing.status();
  EXPECT_GE(estimate, double(KernelIssueCycles(*spec) + 2 * DmaLatencyCycles(*spec)) /
                          ClockHz(*spec));
  EXPECT_NEAR(estimate, timing->seconds, 0.1 * timing->seconds);
}

TEST(DeviceCostModelTest, DrivesFusionInCompileAndTime) {
  auto spec = LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto module = ParseAndReturnVerifiedModule(kModule);
  ASSERT_TRUE(module.ok()) << module.status();
  auto timed = CompileAndTime(std::move(module).value(), *spec);
  ASSERT_TRUE(timed.ok()) << timed.status();
  // The dot and the add became one kernel on the MXUs (beside the layout
  // copy of the weights); no add runs on its own.
  int mxu_fusions = 0;
  for (const OpTiming& op : timed->timing.ops) {
    EXPECT_NE(op.instruction, "s");
    if (op.unit == "MXU" && op.instruction.rfind("fusion", 0) == 0) ++mxu_fusions;
  }
  EXPECT_EQ(mxu_fusions, 1);
}

}  // namespace
}  // namespace systolic::device
