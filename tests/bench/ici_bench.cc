// Wall time to simulate a 1 GiB all-reduce on a v4 4x4x4 pod slice (64
// chips, 2,304 transfers on bidirectional rings axis by axis), against the
// bare work of building the same transfers and their routes.
#include "benchmark/benchmark.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/ici_collectives.h"
#include "tests/bench/bench_support.h"

namespace systolic::device {
namespace {

const IciTopology& V4Pod() {
  static const IciTopology* topology = [] {
    auto spec = LoadChipSpec("v4");
    auto t = IciTopology::Create(*spec, {4, 4, 4});
    return new IciTopology(*std::move(t));
  }();
  return *topology;
}

void BM_SimulateAllReduce1GiB(benchmark::State& state) {
  for (auto _ : state) {
    auto timing = TimeCollective(V4Pod(), IciCollective::kAllReduce, int64_t{1} << 30);
    if (!timing.ok()) {
      state.SkipWithError(std::string(timing.status().message()).c_str());
      return;
    }
    state.counters["simulated_ms"] = timing->seconds() * 1e3;
    benchmark::DoNotOptimize(timing);
  }
}

void BM_BuildTransfersAndRoutes(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<IciTransfer> transfers =
        TorusCollective(V4Pod(), IciCollective::kAllReduce, int64_t{1} << 30);
    int64_t hops = 0;
    for (const IciTransfer& t : transfers) {
      hops += int64_t(V4Pod().Route(t.source_chip, t.target_chip).size());
    }
    benchmark::DoNotOptimize(hops);
  }
}

BENCHMARK(BM_SimulateAllReduce1GiB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildTransfersAndRoutes)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace systolic::device

int main(int argc, char** argv) {
  systolic::bench::DeclareRatio("simulate 1 GiB all-reduce on v4:4x4x4 vs building its transfers",
                                "BM_SimulateAllReduce1GiB", "BM_BuildTransfersAndRoutes",
                                systolic::bench::Metric::kRealTime, 20);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
