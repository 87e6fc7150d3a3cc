// The whole compiler pipeline (passes with snapshots, then buffer
// assignment) on the largest corpus module and on generated programs of
// 1,000, 10,000 and 100,000 instructions. Targets: 10,000 instructions
// compile in under a second, and ten times the program costs at most 15
// times the time (no pass is quadratic).
#include <string>

#include "benchmark/benchmark.h"
#include "core/compiler/compiler.h"
#include "core/hlo/hlo_parser.h"
#include "tests/bench/bench_support.h"
#include "tests/bench/largest_corpus_module.h"
#include "tests/support/random_program_generator.h"

namespace systolic {
namespace {


const HloModule* Generated(int64_t instructions) {
  RandomProgramOptions options;
  options.instructions = instructions;
  options.max_dimension = 16;
  options.while_probability = 0.002;
  return RandomProgramGenerator(2024, options).Generate().release();
}

void Compile(benchmark::State& state, const HloModule* module) {
  if (module == nullptr) {
    state.SkipWithError("module not available (corpus missing?)");
    return;
  }
  CompileOptions options;
  options.verify_between_passes = false;
  Compiler compiler(options);
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<HloModule> copy = module->Clone();
    state.ResumeTiming();
    auto result = compiler.Compile(std::move(copy));
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * module->instruction_count());
  state.counters["instructions"] = double(module->instruction_count());
}

void BM_CompileCorpusLargest(benchmark::State& state) { Compile(state, bench::LargestCorpusModule()); }

void BM_CompileGenerated(benchmark::State& state) {
  static const HloModule* modules[] = {Generated(1000), Generated(10000), Generated(100000)};
  const int64_t n = state.range(0);
  Compile(state, n == 1000 ? modules[0] : n == 10000 ? modules[1] : modules[2]);
}

BENCHMARK(BM_CompileCorpusLargest)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CompileGenerated)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace systolic

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  DeclareRatio("compile time, 100k vs 10k instructions (linear: 10, quadratic: 100)",
               "BM_CompileGenerated/100000/real_time", "BM_CompileGenerated/10000/real_time",
               Metric::kRealTime, 15);
  DeclareRatio("compile time, 10k vs 1k instructions", "BM_CompileGenerated/10000/real_time",
               "BM_CompileGenerated/1000/real_time", Metric::kRealTime, 15);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
