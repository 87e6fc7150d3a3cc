// Control flow on the simulated chip: a loop's body is simulated once and
// its timing repeated, so a 10,000-iteration data-parallel loop on a
// 4,096-chip slice times in about the wall time of one iteration (the
// baseline, in the same run). Its real-sized twin is the partitioned,
// scanned training step of samples/hlo, compiled and timed on a v5p slice,
// held against compiling it alone.
#include <string>

#include "absl/strings/str_replace.h"
#include "benchmark/benchmark.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "tests/bench/bench_support.h"

namespace systolic::device {
namespace {

// A data-parallel step repeated $N times: a matmul, then its gradient
// summed over every replica.
constexpr char kLoop[] = R"(
HloModule loop, replica_count=4096
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
cond {
  p = (s32[], f32[1024,1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant($N)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[1024,1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  w = f32[1024,1024] get-tuple-element(p), index=1
  d = f32[1024,1024] dot(w, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  r = f32[1024,1024] all-reduce(d), replica_groups={}, to_apply=add
  ROOT t = (s32[], f32[1024,1024]) tuple(next, r)
}
ENTRY main {
  w = f32[1024,1024] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[1024,1024]) tuple(zero, w)
  loop = (s32[], f32[1024,1024]) while(init), condition=cond, body=body
  ROOT out = f32[1024,1024] get-tuple-element(loop), index=1
})";

void BM_TimeLoopOnPod(benchmark::State& state) {
  const std::string text =
      absl::StrReplaceAll(kLoop, {{"$N", std::to_string(state.range(0))}});
  auto module = ParseAndReturnVerifiedModule(text);
  auto slice = LoadSlice("v4:16x16x16", "v4");
  if (!module.ok() || !slice.ok()) return state.SkipWithError("cannot set up the loop");
  for (auto _ : state) {
    auto timing = TimeCompiledModuleOnSlice(**module, *slice);
    if (!timing.ok()) return state.SkipWithError(std::string(timing.status().message()).c_str());
    benchmark::DoNotOptimize(timing);
  }
}
BENCHMARK(BM_TimeLoopOnPod)->Arg(1)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

std::unique_ptr<HloModule> ScannedStep() {
  auto loaded = LoadHloFile(std::string(SYSTOLIC_BENCH_SOURCE_DIR) +
                                "/samples/hlo/scanned_decoder_step_spmd.hlo",
                            true);
  if (!loaded.ok() || !(*loaded)[0].module.ok()) return nullptr;
  return std::move((*loaded)[0].module).value();
}

void BM_CompileScannedStep(benchmark::State& state) {
  std::unique_ptr<HloModule> module = ScannedStep();
  auto spec = LoadChipSpec("v5p");
  if (module == nullptr || !spec.ok()) return state.SkipWithError("cannot load the sample");
  for (auto _ : state) {
    auto compiled = CompileForChip(module->Clone(), *spec);
    if (!compiled.ok()) return state.SkipWithError(std::string(compiled.status().message()).c_str());
    benchmark::DoNotOptimize(compiled);
  }
}
BENCHMARK(BM_CompileScannedStep)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CompileAndTimeScannedStep(benchmark::State& state) {
  std::unique_ptr<HloModule> module = ScannedStep();
  auto spec = LoadChipSpec("v5p");
  if (module == nullptr || !spec.ok()) return state.SkipWithError("cannot load the sample");
  auto slice = SliceForDevices(*spec, 8);
  if (!slice.ok()) return state.SkipWithError("no slice");
  for (auto _ : state) {
    auto timed = CompileAndTimeOnSlice(module->Clone(), *slice);
    if (!timed.ok()) return state.SkipWithError(std::string(timed.status().message()).c_str());
    benchmark::DoNotOptimize(timed);
  }
}
BENCHMARK(BM_CompileAndTimeScannedStep)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace systolic::device

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  DeclareRatio("10,000 iterations vs 1 of a data-parallel loop on v4:16x16x16 (timing only)",
               "BM_TimeLoopOnPod/10000/real_time", "BM_TimeLoopOnPod/1/real_time",
               Metric::kRealTime, 2);
  DeclareRatio("compile and time the scanned training step on v5p:4x2 vs compiling it",
               "BM_CompileAndTimeScannedStep/real_time", "BM_CompileScannedStep/real_time",
               Metric::kRealTime, 3);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
