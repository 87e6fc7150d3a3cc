// Lowering compiled HLO onto the simulated chip, and its simulated timing.
#include "core/device/hlo_lowering.h"

#include <set>
#include <string>

#include "absl/strings/match.h"
#include "core/compiler/compiler.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/device_simulator.h"
#include "core/device/gemm_placement.h"
#include "core/device/mxu_analytic_engine.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

ChipSpec Chip(const std::string& name) {
  absl::StatusOr<ChipSpec> spec = LoadChipSpec(name);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

std::unique_ptr<HloModule> Parse(const std::string& text) {
  auto module = ParseAndReturnVerifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return std::move(module).value();
}

std::unique_ptr<HloModule> Sample(const std::string& name) {
  auto loaded = LoadHloFile(std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name, false);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  return std::move((*loaded)[0].module).value();
}

// Ops of every core, with their unit kinds.
int CountOps(const LoweredProgram& lowered, UnitKind kind) {
  int n = 0;
  for (const CoreProgram& core : lowered.program.cores) {
    for (const DeviceOp& op : core.ops()) n += op.unit.kind == kind ? 1 : 0;
  }
  return n;
}

constexpr char kDot[] = R"(
HloModule dot
ENTRY main {
  a = bf16[48,40] parameter(0)
  b = bf16[40,24] parameter(1)
  ROOT d = f32[48,24] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

TEST(HloLoweringTest, SingleDotOnEdgeIsOneMxuPassWithThePipelinedAnalyticCycles) {
  const ChipSpec spec = Chip("edge");
  auto module = Parse(kDot);
  auto lowered = LowerModule(*module, spec);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  ASSERT_EQ(lowered->program.cores.size(), 1u);
  std::vector<GemmShape> gemms;
  for (const DeviceOp& op : lowered->program.cores[0].ops()) {
    EXPECT_TRUE(absl::StartsWith(op.name, "d/")) << op.name;
    if (const auto* m = std::get_if<MatmulWork>(&op.work)) gemms.push_back(m->gemm);
  }
  ASSERT_EQ(gemms.size(), 1u);
  EXPECT_EQ(gemms[0].m, 48);
  EXPECT_EQ(gemms[0].n, 24);
  EXPECT_EQ(gemms[0].k, 40);

  auto sim = DeviceSimulator(spec).Run(lowered->program);
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto analytic = MxuAnalyticEngine::ForChip(spec).RunPipelined({48, 24, 40});
  ASSERT_TRUE(analytic.ok());
  const UnitLane* mxu = sim->FindLane(0, Mxu(0));
  ASSERT_NE(mxu, nullptr);
  ASSERT_EQ(mxu->events.size(), 1u);
  EXPECT_EQ(mxu->events[0].duration_cycles, analytic->cycles);
  EXPECT_EQ(mxu->events[0].flops, 2.0 * 48 * 24 * 40);
}

// Megacore: a dot of one output tile on a two-core chip is cut in two
// along its larger output extent, one half per TensorCore, so both cores'
// MXUs work and each loads half of the weights; its time does not grow.
TEST(HloLoweringTest, ASmallDotRunsOnBothCoresOfATwoCoreChip) {
  const ChipSpec v4 = Chip("v4");
  ASSERT_EQ(v4.tensor_cores_per_chip(), 2);
  auto module = Parse(R"(
HloModule one_tile
ENTRY main {
  a = bf16[64,512] parameter(0)
  b = bf16[512,128] parameter(1)
  ROOT d = f32[64,128] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  auto lowered = LowerModule(*module, v4);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  ASSERT_EQ(lowered->program.cores.size(), 2u);
  double flops[2] = {0, 0};
  for (int c = 0; c < 2; ++c) {
    for (const DeviceOp& op : lowered->program.cores[c].ops()) {
      if (const auto* m = std::get_if<MatmulWork>(&op.work)) {
        EXPECT_EQ(m->gemm.m, 64);
        EXPECT_EQ(m->gemm.n, 64) << "the 128 columns halved";
        flops[c] += 2.0 * m->gemm.m * m->gemm.n * m->gemm.k;
      }
    }
  }
  EXPECT_EQ(flops[0], 2.0 * 64 * 64 * 512);
  EXPECT_EQ(flops[1], flops[0]);

  // Without the split core 0 would do it all: the split is no slower.
  auto split = DeviceSimulator(v4).Run(lowered->program);
  ASSERT_TRUE(split.ok()) << split.status();
  ChipSpec single = v4;
  single.set_tensor_cores_per_chip(1);
  auto alone = LowerModule(*module, single);
  ASSERT_TRUE(alone.ok()) << alone.status();
  auto on_one = DeviceSimulator(single).Run(alone->program);
  ASSERT_TRUE(on_one.ok()) << on_one.status();
  EXPECT_LE(split->cycles, on_one->cycles);
}

TEST(HloLoweringTest, LargeDotTilesCoverTheGemmAndEachPassCostsThePipelinedAnalyticCycles) {
  const ChipSpec spec = Chip("v4");
  auto module = Parse(R"(
HloModule big
ENTRY main {
  a = bf16[1024,2048] parameter(0)
  b = bf16[2048,768] parameter(1)
  ROOT d = f32[1024,768] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  auto lowered = LowerModule(*module, spec);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  auto sim = DeviceSimulator(spec).Run(lowered->program);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const MxuAnalyticEngine engine = MxuAnalyticEngine::ForChip(spec);
  int64_t macs = 0;
  std::set<int> cores_used;
  for (const UnitLane& lane : sim->lanes) {
    if (lane.unit.kind != UnitKind::kMxu) continue;
    const CoreProgram& core = lowered->program.cores[lane.core];
    for (const TraceEvent& e : lane.events) {
      const GemmShape gemm = std::get<MatmulWork>(core.ops()[e.op].work).gemm;
      auto t = engine.RunPipelined(gemm);
      ASSERT_TRUE(t.ok());
      EXPECT_EQ(e.duration_cycles, t->cycles) << e.name;
      macs += gemm.macs();
      cores_used.insert(lane.core);
    }
  }
  EXPECT_EQ(macs, int64_t(1024) * 768 * 2048);
  EXPECT_EQ(cores_used.size(), 2u) << "a big GEMM runs on both cores";
}

// One output feature and a 3x3 window per group would fill a sliver of each
// MXU fold; the products run on the vector unit instead, and the fusion
// cost model places them the same way.
TEST(HloLoweringTest, DepthwiseConvolutionRunsOnTheVectorUnit) {
  const ChipSpec spec = Chip("v4");
  auto module = Parse(R"(
HloModule depthwise
ENTRY main {
  x = f32[8,64,56,56] parameter(0)
  w = f32[3,3,1,64] parameter(1)
  ROOT c = f32[8,64,56,56] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_01io->bf01, feature_group_count=64
})");
  auto lowered = LowerModule(*module, spec);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  EXPECT_EQ(CountOps(*lowered, UnitKind::kMxu), 0);
  EXPECT_GT(CountOps(*lowered, UnitKind::kVector), 0);
  auto sim = DeviceSimulator(spec).Run(lowered->program);
  ASSERT_TRUE(sim.ok()) << sim.status();
  double flops = 0;
  for (const UnitLane& lane : sim->lanes) {
    for (const TraceEvent& e : lane.events) flops += e.flops;
  }
  // Every product of the convolution is a multiply and an add.
  EXPECT_GE(flops, 2.0 * 8 * 64 * 56 * 56 * 9);

  const KernelPlan plan = PlanKernel(*module->entry_computation()->root_instruction());
  ASSERT_EQ(plan.gemms.size(), 1u);
  EXPECT_TRUE(RunsBetterOnVectorUnit(plan.gemms[0], spec));
  EXPECT_LT(VectorCyclesOf(plan.gemms[0], spec), MxuCyclesOf(plan.gemms[0], spec) / 10);
}

TEST(HloLoweringTest, ElementwiseChainIsVectorWorkOnly) {
  const ChipSpec spec = Chip("v4");
  auto module = Parse(R"(
HloModule chain
ENTRY main {
  x = f32[256,1024] parameter(0)
  y = f32[256,1024] parameter(1)
  s = f32[256,1024] add(x, y)
  e = f32[256,1024] exponential(s)
  ROOT m = f32[256,1024] multiply(e, x)
})");
  auto lowered = LowerModule(*module, spec);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  EXPECT_EQ(CountOps(*lowered, UnitKind::kMxu), 0);
  EXPECT_GT(CountOps(*lowered, UnitKind::kVector), 0);
  EXPECT_GT(CountOps(*lowered, UnitKind::kDma), 0);
  bool transcendental = false;
  for (const CoreProgram& core : lowered->program.cores) {
    for (const DeviceOp& op : core.ops()) {
      if (const auto* v = std::get_if<VectorWork>(&op.work)) {
        if (absl::StartsWith(op.name, "e/")) transcendental |= v->transcendentals_per_element > 0;
      }
    }
  }
  EXPECT_TRUE(transcendental) << "exp counts as a transcendental";
  auto sim = DeviceSimulator(spec).Run(lowered->program);
  ASSERT_TRUE(sim.ok()) << sim.status();
}

constexpr char kTwoLayerMlp[] = R"(
HloModule mlp2
ENTRY main {
  x = bf16[256,512] parameter(0)
  w1 = bf16[512,512] parameter(1)
  w2 = bf16[512,256] parameter(2)
  h = f32[256,512] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = f32[] constant(0)
  zeros = f32[256,512] broadcast(zero), dimensions={}
  r = f32[256,512] maximum(h, zeros)
  rb = bf16[256,512] convert(r)
  ROOT y = f32[256,256] dot(rb, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

TEST(HloLoweringTest, DmaOverlapsComputeInATwoLayerMlp) {
  const ChipSpec spec = Chip("edge");
  auto module = Parse(kTwoLayerMlp);
  auto timing = TimeCompiledModule(*module, spec);
  ASSERT_TRUE(timing.ok()) << timing.status();
  int64_t busy = 0;
  for (const UnitLane& lane : timing->simulation.lanes) busy += lane.busy_cycles;
  EXPECT_LT(timing->cycles, busy) << "units ran at the same time";
  // Some load ran while the MXU computed.
  const UnitLane* mxu = timing->simulation.FindLane(0, Mxu(0));
  ASSERT_NE(mxu, nullptr);
  bool overlap = false;
  for (const UnitLane& lane : timing->simulation.lanes) {
    if (lane.unit.kind != UnitKind::kDma) continue;
    for (const TraceEvent& d : lane.events) {
      for (const TraceEvent& m : mxu->events) {
        overlap |= d.start_cycle < m.end_cycle() && m.start_cycle < d.end_cycle();
      }
    }
  }
  EXPECT_TRUE(overlap);
}

TEST(HloLoweringTest, ModuleLargerThanHbmIsResourceExhaustedNamingTheLargestBuffer) {
  const ChipSpec spec = Chip("edge");  // 64 MiB of HBM
  auto module = Parse(R"(
HloModule too_big
ENTRY main {
  small = f32[16] parameter(0)
  huge = f32[8192,4096] parameter(1)
  n = f32[8192,4096] negate(huge)
  ROOT t = (f32[16], f32[8192,4096]) tuple(small, n)
})");
  auto lowered = LowerModule(*module, spec);
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.status().code(), absl::StatusCode::kResourceExhausted);
  const std::string message(lowered.status().message());
  EXPECT_TRUE(absl::StrContains(message, "out of HBM")) << message;
  EXPECT_TRUE(absl::StrContains(message, "huge")) << message;
  EXPECT_TRUE(absl::StrContains(message, "f32[8192,4096]")) << message;
}

TEST(HloLoweringTest, UnmodelledOpsGetANamedFixedOp) {
  const ChipSpec spec = Chip("v4");
  auto module = Parse(R"(
HloModule cc
ENTRY main {
  x = f32[128] parameter(0)
  ROOT c = f32[128] custom-call(x), custom_call_target="foo"
})");
  auto timing = TimeCompiledModule(*module, spec);
  ASSERT_TRUE(timing.ok()) << timing.status();
  bool found = false;
  for (const DeviceOp& op : timing->lowered.program.cores[0].ops()) {
    found |= op.name == "c/unmodelled custom call foo" && std::holds_alternative<FixedWork>(op.work);
  }
  EXPECT_TRUE(found);
}

TEST(ProgramTimingTest, MlpLayerSampleOnV4) {
  const ChipSpec spec = Chip("v4");
  auto timed = CompileAndTime(Sample("mlp_layer.hlo"), spec);
  ASSERT_TRUE(timed.ok()) << timed.status();
  const ProgramTiming& t = timed->timing;
  EXPECT_GT(t.seconds, 0);
  EXPECT_GT(t.flops, 2.0 * 32 * 64 * 128 - 1);
  EXPECT_GT(t.flops_per_second, 0);
  EXPECT_LT(t.flops_per_second, t.peak_flops_per_second);
  EXPECT_NEAR(t.peak_flops_per_second, 275e12, 1e12);
  ASSERT_FALSE(t.ops.empty());
  double parts = 0;
  for (const OpTiming& op : t.ops) {
    EXPECT_GT(op.seconds, 0) << op.instruction;
    EXPECT_GE(op.utilization, 0) << op.instruction;
    parts += op.seconds;
  }
  EXPECT_LE(t.seconds, parts + 1e-15);

  // Every trace event maps back to an instruction of the compiled module.
  std::set<std::string> names;
  for (const HloInstruction* instr : timed->compilation.module->entry_computation()->instructions()) {
    names.insert(instr->name());
  }
  int64_t events = 0;
  for (const UnitLane& lane : t.simulation.lanes) {
    for (const TraceEvent& e : lane.events) {
      const std::string& instruction = t.lowered.InstructionOf(lane.core, e.op);
      EXPECT_TRUE(names.count(instruction)) << instruction;
      EXPECT_TRUE(absl::StartsWith(e.name, instruction + "/")) << e.name;
      ++events;
    }
  }
  EXPECT_GT(events, 0);
}

TEST(ProgramTimingTest, SimulatedTimeBelowSumOfOpsWhenOpsOverlap) {
  const ChipSpec spec = Chip("v4");
  auto timing = TimeCompiledModule(*Parse(kTwoLayerMlp), spec);
  ASSERT_TRUE(timing.ok()) << timing.status();
  EXPECT_GT(timing->seconds, 0);
  EXPECT_LE(timing->seconds, timing->sum_of_op_seconds);
}

}  // namespace
}  // namespace systolic::device
