#include "core/device/device_simulator.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/core_program_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

// Fixed costs of the test chip, in ns (= cycles); none unless a test asks.
struct Latencies {
  double dma_ns = 0;
  double kernel_issue_ns = 0;
};

// A chip with round figures: 1 GHz, so GB/s are bytes per cycle and ns are
// cycles. Each DMA engine moves 8 B/cycle with two descriptors in flight;
// HBM gives $HBM B/cycle to all transfers; VMEM holds $VMEM bytes per core.
// The MXUs are 4×4 output-stationary: a 4×4×K matmul takes 4 + 4 + K - 2
// = 6 + K cycles.
ChipSpec TestChip(double hbm_gb_per_second, int64_t vmem_bytes, int cores = 1,
                  Latencies latency = {}) {
  const std::string text = absl::StrReplaceAll(
      R"(name: "test"
tensor_cores_per_chip: $CORES
clock_mhz: 1000
mxu { count: 2 rows: 4 cols: 4 dataflow: OUTPUT_STATIONARY }
vector_unit { lanes: 128 sublanes: 8 ops_per_cycle: 1 transcendental_cycles: 4 }
vmem { capacity_mib: $VMEM }
hbm { capacity_gib: 1 bandwidth_gb_per_second: $HBM }
dma { engines: 2 bandwidth_gb_per_second: 8 latency_ns: $DMA_LATENCY outstanding_descriptors: 2 }
ici { links_per_chip: 4 bandwidth_gb_per_second_per_link: 1 hop_latency_ns: 1000 topology: TORUS_2D }
scalar_unit { kernel_issue_ns: $ISSUE }
)",
      {{"$CORES", absl::StrCat(cores)},
       {"$DMA_LATENCY", absl::StrCat(latency.dma_ns)},
       {"$ISSUE", absl::StrCat(latency.kernel_issue_ns)},
       {"$VMEM", absl::StrCat(double(vmem_bytes) / (1 << 20))},
       {"$HBM", absl::StrCat(hbm_gb_per_second)}});
  absl::StatusOr<ChipSpec> spec = ParseChipSpec(text, "test chip");
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

SimulationResult RunOrDie(const ChipSpec& spec, const ChipProgram& program) {
  absl::StatusOr<SimulationResult> result = DeviceSimulator(spec).Run(program);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : SimulationResult{};
}

// The classic tiled loop: load tile i into VMEM, multiply it, free it. A
// 100-cycle load (800 B at 8 B/cycle) and a 100-cycle matmul (K = 94).
ChipProgram TiledLoop(int tiles, int64_t tile_bytes, int64_t k, bool alternate_engines) {
  ChipProgram program;
  CoreProgram& core = program.cores.emplace_back();
  for (int i = 0; i < tiles; ++i) {
    const VmemBufferId buffer = core.AddVmemBuffer(absl::StrCat("tile", i), tile_bytes);
    const OpId load = core.Add({.name = absl::StrCat("load", i),
                                .unit = Dma(alternate_engines ? i % 2 : 0),
                                .work = DmaWork{tile_bytes, DmaDirection::kHbmToVmem},
                                .allocates = {buffer}});
    core.Add({.name = absl::StrCat("matmul", i),
              .unit = Mxu(0),
              .work = MatmulWork{{4, 4, k}},
              .deps = {load},
              .frees = {buffer}});
  }
  return program;
}

// Double buffering: with VMEM for two tiles, load i+1 runs under matmul i.
// load0 [0,100); load1 [100,200) ‖ matmul0 [100,200); load2 needs matmul0's
// buffer: [200,300) ‖ matmul1; load3 [300,400) ‖ matmul2; matmul3
// [400,500). Total 500 instead of 4 × 200.
TEST(DeviceSimulatorTest, DoubleBufferingOverlapsDmaAndCompute) {
  const SimulationResult r = RunOrDie(TestChip(16, 1600), TiledLoop(4, 800, 94, false));
  EXPECT_EQ(r.cycles, 500);
  EXPECT_EQ(r.FindEvent(0, "load2")->start_cycle, 200);
  EXPECT_EQ(r.FindEvent(0, "load2")->stall_cycles, 0);
  EXPECT_EQ(r.FindEvent(0, "matmul0")->start_cycle, 100);
  EXPECT_EQ(r.FindEvent(0, "matmul0")->duration_cycles, 100);
  // The MXU waited only for the first tile.
  EXPECT_EQ(r.FindEvent(0, "matmul0")->stall_cycles, 100);
  EXPECT_EQ(r.FindEvent(0, "matmul0")->stall_cause, StallCause::kDependency);
  EXPECT_EQ(r.FindEvent(0, "matmul1")->stall_cycles, 0);
  EXPECT_EQ(r.FindLane(0, Mxu(0))->busy_cycles, 400);
  EXPECT_EQ(r.FindLane(0, Dma(0))->busy_cycles, 400);
  EXPECT_EQ(r.cores[0].peak_vmem_bytes, 1600);
  EXPECT_EQ(r.FindEvent(0, "matmul0")->flops, 2.0 * 4 * 4 * 94);
  EXPECT_EQ(r.FindEvent(0, "load0")->bytes, 800);
}

// With VMEM for one tile, every load waits for the previous matmul to free
// its buffer: load_i [200i, 200i+100), matmul_i [200i+100, 200i+200): 800.
TEST(DeviceSimulatorTest, SingleBufferSerialises) {
  const SimulationResult r = RunOrDie(TestChip(16, 800), TiledLoop(4, 800, 94, false));
  EXPECT_EQ(r.cycles, 800);
  const TraceEvent* load1 = r.FindEvent(0, "load1");
  EXPECT_EQ(load1->start_cycle, 200);
  EXPECT_EQ(load1->stall_cycles, 100);
  EXPECT_EQ(load1->stall_cause, StallCause::kVmemCapacity);
}

// Bandwidth-bound: 1600-byte tiles take 200 cycles to load, the matmuls 100.
// The loads run back to back (4 × 200 = 800) and the last matmul ends at
// 900; each matmul after the first waits 100 cycles for its tile.
TEST(DeviceSimulatorTest, BandwidthBoundStream) {
  const SimulationResult r = RunOrDie(TestChip(16, 4 * 1600), TiledLoop(4, 1600, 94, false));
  EXPECT_EQ(r.cycles, 900);
  for (int i = 1; i < 4; ++i) {
    const TraceEvent* matmul = r.FindEvent(0, absl::StrCat("matmul", i));
    EXPECT_EQ(matmul->start_cycle, 200 * (i + 1));
    EXPECT_EQ(matmul->stall_cycles, 100);
  }
  EXPECT_EQ(r.FindLane(0, Dma(0))->busy_cycles, 800);
}

// Two engines with HBM headroom (16 B/cycle for two 8 B/cycle engines): the
// loads pair up, [0,200) and [200,400); matmuls at 200, 300, 400, 500 → 600.
TEST(DeviceSimulatorTest, SecondEngineHelpsWhenHbmHasHeadroom) {
  const SimulationResult r = RunOrDie(TestChip(16, 4 * 1600), TiledLoop(4, 1600, 94, true));
  EXPECT_EQ(r.cycles, 600);
  EXPECT_EQ(r.FindEvent(0, "load1")->duration_cycles, 200);
  EXPECT_EQ(r.FindEvent(0, "load1")->stall_cycles, 0);
}

// Two engines on 8 B/cycle of HBM: the paired loads share it at 4 B/cycle
// each, [0,400) and [400,800), 200 cycles of contention each; matmuls at
// 400, 500, 800, 900 → 1000: worse than one engine (900), because sharing
// delays the first tile.
TEST(DeviceSimulatorTest, TwoEnginesContendForHbm) {
  const SimulationResult r = RunOrDie(TestChip(8, 4 * 1600), TiledLoop(4, 1600, 94, true));
  EXPECT_EQ(r.cycles, 1000);
  const TraceEvent* load0 = r.FindEvent(0, "load0");
  EXPECT_EQ(load0->duration_cycles, 400);
  EXPECT_EQ(load0->stall_cycles, 200);
  EXPECT_EQ(load0->stall_cause, StallCause::kHbmBandwidth);
  EXPECT_DOUBLE_EQ(load0->utilization, 0.5);
  EXPECT_EQ(r.FindEvent(0, "load3")->start_cycle, 400);
  EXPECT_EQ(r.FindEvent(0, "matmul2")->start_cycle, 800);
}

// Unequal transfers: 10000 B and 5000 B start together on 8 B/cycle of HBM.
// Both run at 4 B/cycle until the small one ends at 1250 (5000 / 4); the big
// one has 5000 B left and alone gets 8 B/cycle: 625 more → 1875.
TEST(DeviceSimulatorTest, BandwidthIsRedistributedWhenATransferEnds) {
  ChipProgram program;
  CoreProgram& core = program.cores.emplace_back();
  core.Add({.name = "big", .unit = Dma(0), .work = DmaWork{10000, DmaDirection::kHbmToVmem}});
  core.Add({.name = "small", .unit = Dma(1), .work = DmaWork{5000, DmaDirection::kVmemToHbm}});
  const SimulationResult r = RunOrDie(TestChip(8, 1 << 20), program);
  EXPECT_EQ(r.FindEvent(0, "small")->duration_cycles, 1250);
  EXPECT_EQ(r.FindEvent(0, "big")->duration_cycles, 1875);
  EXPECT_EQ(r.FindEvent(0, "big")->stall_cycles, 1875 - 1250);
  EXPECT_EQ(r.cycles, 1875);
}

// Dependencies across units and in-order issue on each unit.
//   load   DMA 0   800 B                      [0, 100)
//   mm     MXU 0   4×4×94, after load          [100, 200)
//   act    vector  4096 elements, 2 ALU ops and 1 transcendental each, after
//                  mm: 4 vregs of 1024; 8 ALU cycles + 4·4 = 16 → 24 cycles
//                                              [200, 224)
//   bias   vector  independent, but behind act on the same unit
//                  (1024 elements, 1 op: 1 cycle)     [224, 225)
//   store  DMA 1   800 B, after act            [224, 324)
//   sync   scalar  10 cycles, after store and bias    [324, 334)
//   mm2    MXU 1   independent: 4×4×14 = 20 cycles    [0, 20)
TEST(DeviceSimulatorTest, DependencyOrdering) {
  ChipProgram program;
  CoreProgram& core = program.cores.emplace_back();
  const OpId load = core.Add({.name = "load", .unit = Dma(0), .work = DmaWork{800}});
  const OpId mm = core.Add(
      {.name = "mm", .unit = Mxu(0), .work = MatmulWork{{4, 4, 94}}, .deps = {load}});
  const OpId act = core.Add({.name = "act",
                             .unit = VectorUnit(),
                             .work = VectorWork{4096, 2, 1},
                             .deps = {mm}});
  const OpId bias = core.Add({.name = "bias", .unit = VectorUnit(), .work = VectorWork{1024, 1, 0}});
  const OpId store = core.Add({.name = "store",
                               .unit = Dma(1),
                               .work = DmaWork{800, DmaDirection::kVmemToHbm},
                               .deps = {act}});
  core.Add({.name = "sync", .unit = ScalarUnit(), .work = FixedWork{10}, .deps = {store, bias}});
  core.Add({.name = "mm2", .unit = Mxu(1), .work = MatmulWork{{4, 4, 14}}});
  const SimulationResult r = RunOrDie(TestChip(16, 1 << 20), program);

  auto span = [&](const char* name) {
    const TraceEvent* e = r.FindEvent(0, name);
    return e ? std::pair{e->start_cycle, e->end_cycle()} : std::pair<int64_t, int64_t>{-1, -1};
  };
  EXPECT_EQ(span("load"), (std::pair<int64_t, int64_t>{0, 100}));
  EXPECT_EQ(span("mm"), (std::pair<int64_t, int64_t>{100, 200}));
  EXPECT_EQ(span("act"), (std::pair<int64_t, int64_t>{200, 224}));
  EXPECT_EQ(span("bias"), (std::pair<int64_t, int64_t>{224, 225}));
  EXPECT_EQ(span("store"), (std::pair<int64_t, int64_t>{224, 324}));
  EXPECT_EQ(span("sync"), (std::pair<int64_t, int64_t>{324, 334}));
  EXPECT_EQ(span("mm2"), (std::pair<int64_t, int64_t>{0, 20}));
  EXPECT_EQ(r.cycles, 334);
  EXPECT_EQ(r.FindEvent(0, "act")->flops, 4096 * 2);
  // 8192 ALU element-ops over 24 cycles of a 1024-wide, 1-op-per-cycle unit.
  EXPECT_DOUBLE_EQ(r.FindEvent(0, "act")->utilization, 8192.0 / (1024 * 24));
  EXPECT_EQ(r.FindEvent(0, "bias")->stall_cycles, 0);  // the unit was never idle before it
  EXPECT_DOUBLE_EQ(r.seconds(), 334e-9);
}

// Cores run in parallel and share the chip's HBM: the same 1600-byte load on
// each core, 8 B/cycle of HBM between them: 4 B/cycle each, both end at 400.
TEST(DeviceSimulatorTest, CoresRunInParallelAndShareHbm) {
  ChipProgram program;
  for (int c = 0; c < 2; ++c) {
    CoreProgram& core = program.cores.emplace_back();
    const OpId load = core.Add({.name = "load", .unit = Dma(0), .work = DmaWork{1600}});
    core.Add({.name = "mm", .unit = Mxu(0), .work = MatmulWork{{4, 4, 94}}, .deps = {load}});
  }
  const SimulationResult r = RunOrDie(TestChip(8, 1 << 20, /*cores=*/2), program);
  ASSERT_EQ(r.cores.size(), 2u);
  EXPECT_EQ(r.cores[0].cycles, 500);
  EXPECT_EQ(r.cores[1].cycles, 500);
  EXPECT_EQ(r.FindEvent(1, "load")->duration_cycles, 400);
  EXPECT_EQ(r.FindLane(1, Mxu(0))->name, "core 1 / MXU 0");
  // Every unit of every core has a lane: 2 MXUs, vector, 2 DMA, scalar, ICI.
  EXPECT_EQ(r.lanes.size(), 14u);
  EXPECT_EQ(r.FindLane(1, IciUnit())->name, "core 1 / ICI");
}

// A lone DMA pays its whole latency: 500 cycles before the first byte, then
// 800 B at 8 B/cycle.
TEST(DeviceSimulatorTest, LoneDmaPaysLatencyThenBandwidth) {
  ChipProgram program;
  program.cores.emplace_back().Add({.name = "load", .unit = Dma(0), .work = DmaWork{800}});
  const SimulationResult r = RunOrDie(TestChip(16, 1 << 20, 1, {.dma_ns = 500}), program);
  const TraceEvent* load = r.FindEvent(0, "load");
  EXPECT_EQ(load->start_cycle, 0);
  EXPECT_EQ(load->duration_cycles, 500 + 100);
  EXPECT_EQ(load->stall_cycles, 0);  // latency is not contention
  EXPECT_DOUBLE_EQ(load->utilization, 100.0 / 600);
  EXPECT_EQ(r.cycles, 600);
}

// A train of 64 tiles of 1000 cycles each on one engine: the engine takes
// the next descriptor while the current one streams, so only the first
// latency shows: 500 + 64 · 1000, not 64 · 1500.
TEST(DeviceSimulatorTest, TrainOfDmasOnOneEngineHidesAllButTheFirstLatency) {
  ChipProgram program;
  CoreProgram& core = program.cores.emplace_back();
  for (int i = 0; i < 64; ++i) {
    core.Add({.name = absl::StrCat("tile", i), .unit = Dma(0), .work = DmaWork{8000}});
  }
  const SimulationResult r = RunOrDie(TestChip(16, 1 << 20, 1, {.dma_ns = 500}), program);
  EXPECT_EQ(r.cycles, 500 + 64 * 1000);
  // On the lane each tile follows the one before, its latency unseen.
  const TraceEvent* tile1 = r.FindEvent(0, "tile1");
  EXPECT_EQ(tile1->start_cycle, 1500);
  EXPECT_EQ(tile1->duration_cycles, 1000);
  EXPECT_EQ(tile1->stall_cycles, 0);
  EXPECT_EQ(r.FindLane(0, Dma(0))->busy_cycles, r.cycles);
}

// The latency of a tile that waits for compute shows again: load1 waits for
// VMEM until matmul0 frees it at 700, then 500 + 100 cycles.
TEST(DeviceSimulatorTest, LatencyShowsWhenALoadWaitsForItsBuffer) {
  const SimulationResult r =
      RunOrDie(TestChip(16, 800, 1, {.dma_ns = 500}), TiledLoop(2, 800, 94, false));
  EXPECT_EQ(r.FindEvent(0, "matmul0")->end_cycle(), 700);
  EXPECT_EQ(r.FindEvent(0, "load1")->start_cycle, 700);
  EXPECT_EQ(r.FindEvent(0, "load1")->duration_cycles, 600);
  EXPECT_EQ(r.cycles, 1400);
}

// A chain of 20 tiny kernels (8 B in, 8 elements, 8 B out: 1 cycle each)
// pays the scalar unit's 50-cycle issue once per kernel.
TEST(DeviceSimulatorTest, EveryKernelPaysItsIssueOnTheScalarUnit) {
  constexpr int kKernels = 20;
  ChipProgram program;
  CoreProgramBuilder builder(&program.cores.emplace_back(), 2);
  std::vector<OpId> after;
  for (int k = 0; k < kKernels; ++k) {
    TileStep step;
    step.label = "vpu";
    step.unit = VectorUnit();
    step.work = VectorWork{8, 1, 0};
    step.in_bytes = {8};
    step.output_bytes = 8;
    after = {builder.AddKernel(absl::StrCat("k", k), {step}, after)};
  }
  const int64_t without = RunOrDie(TestChip(16, 1 << 20), program).cycles;
  const SimulationResult with =
      RunOrDie(TestChip(16, 1 << 20, 1, {.kernel_issue_ns = 50}), program);
  EXPECT_EQ(without, kKernels * 3);
  EXPECT_EQ(with.cycles, kKernels * (50 + 3));
  EXPECT_EQ(with.FindEvent(0, "k1/issue")->start_cycle, 53);
  EXPECT_EQ(with.FindLane(0, ScalarUnit())->busy_cycles, kKernels * 50);
}

// A kernel's "done" holds up nothing on the scalar unit: an independent
// kernel is issued while the first still runs.
TEST(DeviceSimulatorTest, IndependentKernelIsIssuedBeforeTheFirstIsDone) {
  ChipProgram program;
  CoreProgramBuilder builder(&program.cores.emplace_back(), 2);
  TileStep step;
  step.label = "vpu";
  step.unit = VectorUnit();
  step.work = VectorWork{8, 1, 0};
  step.in_bytes = {8000};  // 1000 cycles
  builder.AddKernel("a", {step}, {});
  builder.AddKernel("b", {step}, {});
  const SimulationResult r = RunOrDie(TestChip(16, 1 << 20, 1, {.kernel_issue_ns = 50}), program);
  EXPECT_EQ(r.FindEvent(0, "b/issue")->start_cycle, 50);
  EXPECT_LT(r.FindEvent(0, "b/issue")->end_cycle(), r.FindEvent(0, "a/done")->start_cycle);
}

TEST(DeviceSimulatorTest, DeadlockIsAnErrorNamingTheBlockedOp) {
  ChipProgram program;
  CoreProgram& core = program.cores.emplace_back();
  const VmemBufferId a = core.AddVmemBuffer("a", 800);
  const VmemBufferId b = core.AddVmemBuffer("b", 800);
  core.Add({.name = "load_a", .unit = Dma(0), .work = DmaWork{800}, .allocates = {a}});
  core.Add({.name = "load_b", .unit = Dma(0), .work = DmaWork{800}, .allocates = {b}});
  absl::StatusOr<SimulationResult> r = DeviceSimulator(TestChip(16, 800)).Run(program);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("deadlock at cycle 100"));
  EXPECT_THAT(r.status().message(), HasSubstr("'load_b' waits for VMEM (800 of 800 bytes in use)"));
}

TEST(DeviceSimulatorTest, InvalidProgramsAreErrors) {
  const ChipSpec spec = TestChip(16, 800);
  auto error = [&](const ChipProgram& program) {
    absl::StatusOr<SimulationResult> r = DeviceSimulator(spec).Run(program);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : std::string(r.status().message());
  };
  {
    ChipProgram p;
    p.cores.emplace_back().Add({.name = "x", .unit = Mxu(5), .work = MatmulWork{{4, 4, 4}}});
    EXPECT_THAT(error(p), HasSubstr("no unit MXU 5"));
  }
  {
    ChipProgram p;
    CoreProgram& core = p.cores.emplace_back();
    core.Add({.name = "x", .unit = Mxu(0), .work = MatmulWork{{4, 4, 4}}, .deps = {1}});
    core.Add({.name = "y", .unit = Mxu(0), .work = MatmulWork{{4, 4, 4}}});
    EXPECT_THAT(error(p), HasSubstr("'x': depends on op 1, which is not an earlier op"));
  }
  {
    ChipProgram p;
    p.cores.emplace_back().Add({.name = "x", .unit = VectorUnit(), .work = DmaWork{8}});
    EXPECT_THAT(error(p), HasSubstr("its work cannot run on vector"));
  }
  {
    ChipProgram p;
    p.cores.emplace_back().AddVmemBuffer("huge", 801);
    EXPECT_THAT(error(p), HasSubstr("'huge' of 801 bytes (VMEM holds 800)"));
  }
  {
    ChipProgram p;
    p.cores.emplace_back().Add({.name = "x", .unit = Mxu(0), .work = MatmulWork{{0, 4, 4}}});
    EXPECT_THAT(error(p), HasSubstr("'x': M must be positive"));
  }
  {
    ChipProgram p;
    p.cores.resize(2);
    EXPECT_THAT(error(p), HasSubstr("program has 2 cores; chip test has 1"));
  }
}

TEST(DeviceSimulatorTest, RunsOnPresets) {
  // One 128×128×128 matmul on v4: 2·128 + 128 + 128 - 2 = 510 cycles.
  ChipProgram program;
  program.cores.emplace_back().Add(
      {.name = "mm", .unit = Mxu(3), .work = MatmulWork{{128, 128, 128}}});
  const SimulationResult r = RunOrDie(*LoadChipSpec("v4"), program);
  EXPECT_EQ(r.cycles, 510);
  EXPECT_NEAR(r.seconds(), 510 / 1.05e9, 1e-15);
}

}  // namespace
}  // namespace systolic::device
