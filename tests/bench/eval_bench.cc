// The reference evaluator's dense and elementwise speed, each against a
// baseline measured in the same run:
//   dot f32 1024^3 through the evaluator vs a plain Eigen matrix product
//     (GFLOP/s, goal >= 0.8);
//   a 10-op elementwise loop fusion over 16M f32 elements vs memcpy of the
//     same bytes (GB/s counting every byte read and written, goal >= 0.3);
//   convolution 3x3, 64 -> 64 channels, 56x56, batch 8 vs the dot figure
//     (GFLOP/s; reported, no goal set by the issue).
#include <cstring>
#include <vector>

#include <Eigen/Core>

#include "benchmark/benchmark.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/random_arguments.h"
#include "core/hlo/hlo_parser.h"
#include "tests/bench/bench_support.h"

namespace systolic {
namespace {

constexpr int64_t kN = 1024;
constexpr int64_t kElements = int64_t{16} << 20;

std::unique_ptr<HloModule> ParseOrDie(const std::string& text) {
  auto module = ParseAndReturnVerifiedModule(text);
  if (!module.ok()) {
    std::fprintf(stderr, "%s\n", std::string(module.status().message()).c_str());
    std::abort();
  }
  return *std::move(module);
}

void RunModule(benchmark::State& state, const HloModule& module, const std::vector<Literal>& args) {
  HloEvaluator evaluator;
  for (auto _ : state) {
    auto result = evaluator.Evaluate(module, args);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(result->untyped_data());
  }
}

void BM_EigenMatmul1024(benchmark::State& state) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Matrix a = Matrix::Random(kN, kN), b = Matrix::Random(kN, kN), c(kN, kN);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 2 * kN * kN * kN);
}

void BM_EvalDot1024(benchmark::State& state) {
  auto module = ParseOrDie(R"(
HloModule dot
ENTRY e {
  a = f32[1024,1024] parameter(0)
  b = f32[1024,1024] parameter(1)
  ROOT d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  std::vector<Literal> args = MakeRandomArguments(*module->entry_computation(), 1);
  RunModule(state, *module, args);
  state.SetItemsProcessed(int64_t(state.iterations()) * 2 * kN * kN * kN);
}

void BM_Memcpy16M(benchmark::State& state) {
  // The fusion reads two arrays and writes one: copy 1.5 arrays' worth so the
  // bytes read + written match.
  const size_t bytes = size_t(kElements) * 4 * 3 / 2;
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes) * 2);
}

void BM_EvalFusion16M(benchmark::State& state) {
  auto module = ParseOrDie(R"(
HloModule fusion
fused {
  a = f32[16777216] parameter(0)
  b = f32[16777216] parameter(1)
  half = f32[] constant(0.5)
  c = f32[16777216] broadcast(half), dimensions={}
  s = f32[16777216] add(a, b)
  m = f32[16777216] multiply(s, a)
  d = f32[16777216] subtract(m, b)
  h = f32[16777216] multiply(d, c)
  mx = f32[16777216] maximum(h, a)
  mn = f32[16777216] minimum(mx, b)
  n = f32[16777216] negate(mn)
  ab = f32[16777216] abs(n)
  gt = pred[16777216] compare(ab, c), direction=GT
  ROOT r = f32[16777216] select(gt, ab, s)
}
ENTRY e {
  a = f32[16777216] parameter(0)
  b = f32[16777216] parameter(1)
  ROOT f = f32[16777216] fusion(a, b), kind=kLoop, calls=fused
})");
  std::vector<Literal> args = MakeRandomArguments(*module->entry_computation(), 2);
  RunModule(state, *module, args);
  state.SetBytesProcessed(int64_t(state.iterations()) * kElements * 4 * 3);
}

void BM_EvalConv3x3(benchmark::State& state) {
  auto module = ParseOrDie(R"(
HloModule conv
ENTRY e {
  x = f32[8,56,56,64] parameter(0)
  k = f32[3,3,64,64] parameter(1)
  ROOT c = f32[8,56,56,64] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
  std::vector<Literal> args = MakeRandomArguments(*module->entry_computation(), 3);
  RunModule(state, *module, args);
  state.SetItemsProcessed(int64_t(state.iterations()) * 2 * 8 * 56 * 56 * 64 * 64 * 9);
}

BENCHMARK(BM_EigenMatmul1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvalDot1024)->Unit(benchmark::kMillisecond);
// Wall time: the fusion runs its chunks on every core.
BENCHMARK(BM_Memcpy16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EvalFusion16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EvalConv3x3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace systolic

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  DeclareRatio("dot f32 1024^3 vs plain Eigen product", "BM_EvalDot1024", "BM_EigenMatmul1024",
               Metric::kItemsPerSecond, 0.8);
  DeclareRatio("10-op elementwise fusion, 16M f32 vs memcpy of the same bytes", "BM_EvalFusion16M/real_time",
               "BM_Memcpy16M/real_time", Metric::kBytesPerSecond, 0.3);
  // The issue asks for the figure only; 0.5 of the dot's GFLOP/s is what an
  // im2col + GEMM lowering should reach.
  DeclareRatio("convolution 3x3 64->64 56x56 batch 8 vs the dot", "BM_EvalConv3x3",
               "BM_EvalDot1024", Metric::kItemsPerSecond, 0.5);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
