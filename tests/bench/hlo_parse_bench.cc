// Parse + verify throughput of HLO text, in MB/s, against a plain lexical
// scan of the same bytes (the baseline every parser must at least read).
#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"
#include "tests/bench/bench_support.h"

namespace systolic {
namespace {

// A module of `n` instructions: a long elementwise chain with broadcasts,
// constants and reductions, as a training step's HLO looks.
std::string GeneratedModule(int n) {
  std::string text = "HloModule generated\n\n%add (x: f32[], y: f32[]) -> f32[] {\n"
                     "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
                     "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n\n"
                     "ENTRY %main (p0: f32[128,256], p1: f32[256]) -> f32[128] {\n"
                     "  %p0 = f32[128,256]{1,0} parameter(0)\n  %p1 = f32[256]{0} parameter(1)\n"
                     "  %v0 = f32[128,256]{1,0} copy(f32[128,256]{1,0} %p0)\n";
  for (int i = 1; i < n - 4; ++i) {
    switch (i % 4) {
      case 0:
        absl::StrAppend(&text, "  %v", i, " = f32[128,256]{1,0} add(f32[128,256]{1,0} %v", i - 1,
                        ", f32[128,256]{1,0} %b", i - 1, "), metadata={op_name=\"layer_", i / 100,
                        "/add\"}\n");
        break;
      case 1:
        absl::StrAppend(&text, "  %v", i, " = f32[128,256]{1,0} multiply(f32[128,256]{1,0} %v",
                        i - 1, ", f32[128,256]{1,0} %v", i - 1, ")\n");
        break;
      case 2:
        absl::StrAppend(&text, "  %v", i, " = f32[128,256]{1,0} tanh(f32[128,256]{1,0} %v", i - 1,
                        ")\n");
        break;
      case 3:
        absl::StrAppend(&text, "  %b", i, " = f32[128,256]{1,0} broadcast(f32[256]{0} %p1), "
                        "dimensions={1}\n  %v", i, " = f32[128,256]{1,0} subtract(f32[128,256]{1,0} %v",
                        i - 1, ", f32[128,256]{1,0} %b", i, ")\n");
        break;
    }
  }
  absl::StrAppend(&text, "  %zero = f32[] constant(0)\n  ROOT %r = f32[128]{0} reduce(f32[128,256]{1,0} %v",
                  n - 5, ", f32[] %zero), dimensions={1}, to_apply=%add\n}\n");
  return text;
}

const std::string& LargestCorpusModule() {
  static const std::string* text = [] {
    auto* t = new std::string();
    if (auto path = bench::LargestCorpusModulePath()) {
      auto loaded = ReadTextFile(*path);
      if (loaded.ok()) *t = *std::move(loaded);
    }
    return t;
  }();
  return *text;
}

const std::string& Generated100k() {
  static const std::string* text = new std::string(GeneratedModule(100000));
  return *text;
}

void ParseAndVerify(benchmark::State& state, const std::string& text) {
  bench::ParseAndVerifyText(state, text);
}

// The two halves of ParseAndVerify, to see where the time goes, and what
// freeing a module costs (left out of the throughput figures).
void ParseOnly(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    auto module = ParseAndReturnUnverifiedModule(text);
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    state.PauseTiming();  // freeing the module is not parsing
    module->reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

void FreeModule(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    state.PauseTiming();
    auto module = ParseAndReturnUnverifiedModule(text);
    state.ResumeTiming();
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    module->reset();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

void VerifyOnly(benchmark::State& state, const std::string& text) {
  auto module = ParseAndReturnUnverifiedModule(text);
  if (!module.ok()) {
    state.SkipWithError(std::string(module.status().message()).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(VerifyHloModule(**module));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

// Baseline: one pass over the bytes classifying characters as a lexer must.
void LexicalScan(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    int64_t words = 0;
    bool in_word = false;
    for (char c : text) {
      bool word_char = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
      if (word_char && !in_word) ++words;
      in_word = word_char;
    }
    benchmark::DoNotOptimize(words);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

BENCHMARK_CAPTURE(ParseAndVerify, corpus_largest, LargestCorpusModule())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(LexicalScan, corpus_largest, LargestCorpusModule())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ParseAndVerify, generated_100k, Generated100k())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(LexicalScan, generated_100k, Generated100k())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ParseOnly, generated_100k, Generated100k())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(VerifyOnly, generated_100k, Generated100k())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FreeModule, generated_100k, Generated100k())->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace systolic

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  // The target is >= 50 MB/s absolute; the ratio to a lexical scan
  // of the same bytes keeps the figure comparable across machines.
  DeclareRatio("parse+verify vs lexical scan, largest corpus module",
               "ParseAndVerify/corpus_largest", "LexicalScan/corpus_largest",
               Metric::kBytesPerSecond, 0.05);
  DeclareRatio("parse+verify vs lexical scan, 100k instructions", "ParseAndVerify/generated_100k",
               "LexicalScan/generated_100k", Metric::kBytesPerSecond, 0.05);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
