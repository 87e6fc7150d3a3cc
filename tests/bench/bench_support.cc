#include "tests/bench/bench_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include "benchmark/benchmark.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"

namespace systolic::bench {
namespace {

struct Ratio {
  std::string label, target, baseline;
  Metric metric;
  double goal;
};

std::vector<Ratio>& Ratios() {
  static auto* ratios = new std::vector<Ratio>();
  return *ratios;
}

// Console output as usual, and a copy of every run's figures.
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      Figures& f = figures_[run.benchmark_name()];
      f.real_time = run.GetAdjustedRealTime();
      auto items = run.counters.find("items_per_second");
      if (items != run.counters.end()) f.items_per_second = items->second.value;
      auto bytes = run.counters.find("bytes_per_second");
      if (bytes != run.counters.end()) f.bytes_per_second = bytes->second.value;
    }
  }

  struct Figures {
    double real_time = 0, items_per_second = 0, bytes_per_second = 0;
  };
  const std::map<std::string, Figures>& figures() const { return figures_; }

 private:
  std::map<std::string, Figures> figures_;
};

double Pick(const CollectingReporter::Figures& f, Metric m) {
  switch (m) {
    case Metric::kItemsPerSecond:
      return f.items_per_second;
    case Metric::kBytesPerSecond:
      return f.bytes_per_second;
    case Metric::kRealTime:
      return f.real_time;
  }
  return 0;
}

}  // namespace

void DeclareRatio(const std::string& label, const std::string& target,
                  const std::string& baseline, Metric metric, double goal) {
  Ratios().push_back({label, target, baseline, metric, goal});
}

int RunBenchmarksAndReportRatios(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (const Ratio& r : Ratios()) {
    auto t = reporter.figures().find(r.target);
    auto b = reporter.figures().find(r.baseline);
    if (t == reporter.figures().end() || b == reporter.figures().end()) {
      std::printf("RATIO %s: not measured (%s vs %s)\n", r.label.c_str(), r.target.c_str(),
                  r.baseline.c_str());
      continue;
    }
    double base = Pick(b->second, r.metric);
    double ratio = base == 0 ? 0 : Pick(t->second, r.metric) / base;
    bool lower_better = r.metric == Metric::kRealTime;
    bool ok = lower_better ? ratio <= r.goal : ratio >= r.goal;
    std::printf("RATIO %s: %.3f (goal %s %.3f) %s\n", r.label.c_str(), ratio,
                lower_better ? "<=" : ">=", r.goal, ok ? "ok" : "MISSED");
  }
  return 0;
}

void ParseAndVerifyText(benchmark::State& state, const std::string& text) {
  if (text.empty()) {
    state.SkipWithError("module not available (corpus missing?)");
    return;
  }
  for (auto _ : state) {
    auto module = ParseAndReturnUnverifiedModule(text);
    if (!module.ok()) {
      state.SkipWithError(std::string(module.status().message()).c_str());
      return;
    }
    absl::Status verified = VerifyHloModule(**module);
    if (!verified.ok()) {
      state.SkipWithError(std::string(verified.message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(module);
    state.PauseTiming();  // freeing the module is neither parsing nor verifying
    module->reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}

std::optional<std::string> CorpusDir() {
  const char* env = std::getenv("SYSTOLIC_CORPUS_DIR");
  std::string dir = env && *env ? env : SYSTOLIC_DEFAULT_CORPUS_DIR;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return dir;
}

std::optional<std::string> LargestCorpusModulePath() {
  std::optional<std::string> dir = CorpusDir();
  if (!dir) return std::nullopt;
  return *dir + "/hlo/xla_2023/xla/tools/data/benchmarking/mobilenet_v2.hlo";
}

}  // namespace systolic::bench
