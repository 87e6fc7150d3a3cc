// Benchmarks report ratios against a baseline measured in the same run, so
// the figures mean the same on any machine. A benchmark file registers its
// benchmarks with Google Benchmark as usual, declares the ratios it cares
// about, and calls RunBenchmarksAndReportRatios from main().
#pragma once

#include <optional>
#include <string>

#include "benchmark/benchmark.h"

namespace systolic::bench {

enum class Metric {
  kItemsPerSecond,  // counters "items_per_second" (higher is better)
  kBytesPerSecond,  // "bytes_per_second" (higher is better)
  kRealTime,        // time per iteration (lower is better)
};

// ratio = figure(target) / figure(baseline); `goal` is the ratio the issue
// asks for (>= goal for rates, <= goal for times). Names are benchmark names
// as Google Benchmark prints them (e.g. "BM_Parse/100000").
void DeclareRatio(const std::string& label, const std::string& target,
                  const std::string& baseline, Metric metric, double goal);

// Runs the benchmarks (console output as usual), then prints one line per
// declared ratio: `RATIO label: 0.93 (goal >= 0.80) ok`. Returns 0.
int RunBenchmarksAndReportRatios(int argc, char** argv);

// The benchmark loop of parsing `text` and verifying the module (freeing it
// is not timed); bytes per second are the text's. Skips when `text` is empty
// (a corpus file not found) or does not parse and verify.
void ParseAndVerifyText(benchmark::State& state, const std::string& text);

// The corpus folder, if present (env SYSTOLIC_CORPUS_DIR or the default).
std::optional<std::string> CorpusDir();

// The largest HLO module of the corpus (a MobileNetV2 training step), the
// benchmarks' real-program case: its path, if the corpus is present.
std::optional<std::string> LargestCorpusModulePath();

}  // namespace systolic::bench
