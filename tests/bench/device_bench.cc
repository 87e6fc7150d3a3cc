// The device layer's engines: the analytic MXU model against the
// cycle-accurate PE grid on the same GEMMs (GEMMs per second; the ratio is
// the analytic engine's speed-up), and the event-driven core simulation in
// simulated ops per wall second, held against costing the same ops alone
// (what any simulator must do per op) in the same run.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "core/compiler/compiler.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/device_cost_model.h"
#include "core/device/device_simulator.h"
#include "core/device/mxu_analytic_engine.h"
#include "core/device/mxu_cycle_engine.h"
#include "core/device/op_cost_model.h"
#include "core/device/program_timing.h"
#include "tests/bench/bench_support.h"
#include "tests/bench/largest_corpus_module.h"

namespace systolic::device {
namespace {

// 64×64×64 on a 16×16 array: 16 folds of 64 streamed vectors.
constexpr GemmShape kGemm{64, 64, 64};
constexpr ArrayShape kArray{16, 16};
constexpr Dataflow kDataflows[] = {OUTPUT_STATIONARY, WEIGHT_STATIONARY, INPUT_STATIONARY};

void BM_MxuCycleEngine(benchmark::State& state) {
  const Dataflow dataflow = kDataflows[state.range(0)];
  const std::vector<float> a(kGemm.m * kGemm.k, 0.5f), b(kGemm.k * kGemm.n, 0.25f);
  const MxuCycleEngine engine(kArray, dataflow);
  int64_t cycles = 0;
  for (auto _ : state) {
    absl::StatusOr<MxuCycleResult> r = engine.Run(kGemm, a, b);
    benchmark::DoNotOptimize(r);
    cycles = r->timing.cycles;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["pe_cycles_per_second"] = benchmark::Counter(
      double(cycles) * kArray.pes() * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MxuCycleEngine)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_MxuAnalyticEngine(benchmark::State& state) {
  const MxuAnalyticEngine engine(kArray, kDataflows[state.range(0)]);
  for (auto _ : state) {
    absl::StatusOr<MxuTiming> t = engine.Run(kGemm);
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MxuAnalyticEngine)->DenseRange(0, 2);

// A tiled-matmul step on both cores of a v4: per tile, load two operand
// tiles on alternating DMA engines, a matmul on the next MXU, an epilogue on
// the vector unit, a store; double-buffered in VMEM.
ChipProgram TiledProgram(const ChipSpec& spec, int tiles_per_core) {
  ChipProgram program;
  constexpr int64_t kTileBytes = 128 * 128 * 2;
  for (int c = 0; c < spec.tensor_cores_per_chip(); ++c) {
    CoreProgram& core = program.cores.emplace_back();
    for (int i = 0; i < tiles_per_core; ++i) {
      const VmemBufferId lhs = core.AddVmemBuffer(absl::StrCat("lhs", i), kTileBytes);
      const VmemBufferId rhs = core.AddVmemBuffer(absl::StrCat("rhs", i), kTileBytes);
      const OpId load_lhs = core.Add({.name = absl::StrCat("load_lhs.", i),
                                      .unit = Dma(i % 2),
                                      .work = DmaWork{kTileBytes},
                                      .allocates = {lhs}});
      const OpId load_rhs = core.Add({.name = absl::StrCat("load_rhs.", i),
                                      .unit = Dma(2 + i % 2),
                                      .work = DmaWork{kTileBytes},
                                      .allocates = {rhs}});
      const OpId dot = core.Add({.name = absl::StrCat("dot.", i),
                                 .unit = Mxu(i % spec.mxu().count()),
                                 .work = MatmulWork{{128, 128, 128}},
                                 .deps = {load_lhs, load_rhs},
                                 .frees = {lhs, rhs}});
      const OpId epilogue = core.Add({.name = absl::StrCat("relu.", i),
                                      .unit = VectorUnit(),
                                      .work = VectorWork{128 * 128, 1, 0},
                                      .deps = {dot}});
      core.Add({.name = absl::StrCat("store.", i),
                .unit = Dma(i % 4),
                .work = DmaWork{kTileBytes, DmaDirection::kVmemToHbm},
                .deps = {epilogue}});
    }
  }
  return program;
}

constexpr int kTilesPerCore = 2000;  // 5 ops each: 20000 ops on a v4

void BM_DeviceSimulator(benchmark::State& state) {
  const ChipSpec spec = *LoadChipSpec("v4");
  const ChipProgram program = TiledProgram(spec, kTilesPerCore);
  const DeviceSimulator simulator(spec);
  int64_t ops = 0, cycles = 0;
  for (const CoreProgram& core : program.cores) ops += int64_t(core.ops().size());
  for (auto _ : state) {
    absl::StatusOr<SimulationResult> r = simulator.Run(program);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    cycles = r->cycles;
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(ops * int64_t(state.iterations()));
  state.counters["simulated_cycles"] = double(cycles);
}
BENCHMARK(BM_DeviceSimulator)->Unit(benchmark::kMillisecond);

// Baseline: only the per-op cost (analytic MXU model, vector and DMA
// figures) of the same ops, no events, no sharing, no trace.
void BM_OpCosting(benchmark::State& state) {
  const ChipSpec spec = *LoadChipSpec("v4");
  const ChipProgram program = TiledProgram(spec, kTilesPerCore);
  const OpCostModel costs(spec);
  int64_t ops = 0;
  for (auto _ : state) {
    for (const CoreProgram& core : program.cores) {
      for (const DeviceOp& op : core.ops()) {
        absl::StatusOr<OpCost> cost = costs.Cost(op.work);
        benchmark::DoNotOptimize(cost);
      }
      ops += int64_t(core.ops().size());
    }
  }
  state.SetItemsProcessed(ops);
}
BENCHMARK(BM_OpCosting)->Unit(benchmark::kMillisecond);

// The largest corpus module (a MobileNetV2 training step), compiled for a
// v4 once; each iteration lowers it and simulates the chip (timing only).
// Target: under a second of wall time. Baseline: the same program's
// compile, which a user waits for just before.
CompileOptions OptionsFor(const ChipSpec& spec, const DeviceCostModel& costs) {
  CompileOptions options;
  options.chip = spec.name();
  options.cost_model = &costs;
  return options;
}

void BM_CompileLargestCorpusModule(benchmark::State& state) {
  const HloModule* module = bench::LargestCorpusModule();
  if (module == nullptr) return state.SkipWithError("corpus missing");
  const ChipSpec spec = *LoadChipSpec("v4");
  const DeviceCostModel costs(spec);
  const Compiler compiler(OptionsFor(spec, costs));
  for (auto _ : state) {
    auto compiled = compiler.Compile(module->Clone());
    if (!compiled.ok()) return state.SkipWithError(std::string(compiled.status().message()).c_str());
    benchmark::DoNotOptimize(compiled);
  }
}
BENCHMARK(BM_CompileLargestCorpusModule)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SimulateLargestCorpusModule(benchmark::State& state) {
  const HloModule* module = bench::LargestCorpusModule();
  if (module == nullptr) return state.SkipWithError("corpus missing");
  const ChipSpec spec = *LoadChipSpec("v4");
  const DeviceCostModel costs(spec);
  auto compiled = Compiler(OptionsFor(spec, costs)).Compile(module->Clone());
  if (!compiled.ok()) return state.SkipWithError(std::string(compiled.status().message()).c_str());
  int64_t events = 0;
  for (auto _ : state) {
    absl::StatusOr<ProgramTiming> timing = TimeCompiledModule(*compiled->module, spec);
    if (!timing.ok()) return state.SkipWithError(std::string(timing.status().message()).c_str());
    events = 0;
    for (const UnitLane& lane : timing->simulation.lanes) events += int64_t(lane.events.size());
    benchmark::DoNotOptimize(timing);
  }
  state.counters["device_ops"] = double(events);
  state.counters["device_ops_per_second"] =
      benchmark::Counter(double(events) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulateLargestCorpusModule)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace systolic::device

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  const char* names[] = {"os", "ws", "is"};
  for (int i = 0; i < 3; ++i) {
    DeclareRatio(absl::StrCat("analytic MXU engine over cycle engine, 64^3 on 16x16 ", names[i]),
                 absl::StrCat("BM_MxuAnalyticEngine/", i), absl::StrCat("BM_MxuCycleEngine/", i),
                 Metric::kItemsPerSecond, 1000);
  }
  // The target is 1 s of wall time: about eight compiles of the module here.
  DeclareRatio("simulating the largest corpus module on v4 vs compiling it (target: < 1 s)",
               "BM_SimulateLargestCorpusModule/real_time", "BM_CompileLargestCorpusModule/real_time",
               Metric::kRealTime, 8);
  DeclareRatio("event simulation vs costing the same ops alone (ops per second)",
               "BM_DeviceSimulator", "BM_OpCosting", Metric::kItemsPerSecond, 0.02);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
