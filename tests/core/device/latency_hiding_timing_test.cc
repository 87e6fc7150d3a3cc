// The latency-hiding scheduler seen on the simulated slice: the sample's
// all-gather runs on the ICI while the matmuls run, and the step gets
// shorter by exactly the time the timeline shows the two side by side.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/compiler/async_collectives.h"
#include "core/device/ici_collective_cost_model.h"
#include "core/device/slice_timing.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using Interval = std::pair<int64_t, int64_t>;

std::unique_ptr<HloModule> LoadSample() {
  std::ifstream in(std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/allgather_overlap.hlo");
  std::stringstream text;
  text << in.rdbuf();
  auto module = ParseAndReturnUnverifiedModule(text.str());
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

Slice V4Slice() {
  auto slice = LoadSlice("v4:4x2");
  EXPECT_TRUE(slice.ok()) << slice.status();
  return *std::move(slice);
}

absl::StatusOr<TimedSliceCompilation> Compile(bool latency_hiding) {
  CompileOptions options;
  options.latency_hiding = latency_hiding;
  return CompileAndTimeOnSlice(LoadSample(), V4Slice(), std::nullopt, options);
}

// Sorted, merged.
std::vector<Interval> Union(std::vector<Interval> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Interval> out;
  for (const Interval& s : spans) {
    if (!out.empty() && s.first <= out.back().second) {
      out.back().second = std::max(out.back().second, s.second);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

int64_t IntersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  int64_t total = 0;
  for (const Interval& x : a) {
    for (const Interval& y : b) {
      total += std::max<int64_t>(0, std::min(x.second, y.second) - std::max(x.first, y.first));
    }
  }
  return total;
}

// Cycles in which a core's ICI unit and its compute units (MXU, vector,
// DMA, scalar) were busy at once; the most of any core.
int64_t IciComputeOverlapCycles(const SimulationResult& simulation) {
  int64_t most = 0;
  for (size_t core = 0; core < simulation.cores.size(); ++core) {
    std::vector<Interval> ici, compute;
    for (const UnitLane& lane : simulation.lanes) {
      if (lane.core != int(core)) continue;
      for (const TraceEvent& e : lane.events) {
        if (e.duration_cycles == 0) continue;
        (lane.unit.kind == UnitKind::kIci ? ici : compute).push_back({e.start_cycle, e.end_cycle()});
      }
    }
    most = std::max(most, IntersectionLength(Union(ici), Union(compute)));
  }
  return most;
}

TEST(LatencyHidingTiming, TheStepShortensByTheOverlapTheTimelineShows) {
  auto with = Compile(true);
  auto without = Compile(false);
  ASSERT_TRUE(with.ok()) << with.status();
  ASSERT_TRUE(without.ok()) << without.status();
  const SimulationResult& hidden = with->timing.chip.simulation;
  const SimulationResult& fenced = without->timing.chip.simulation;

  // Synchronous, the all-gather fences everything after it; only kernels
  // ordered before it (the memory scheduler puts it last) run alongside.
  const int64_t overlap_fenced = IciComputeOverlapCycles(fenced);
  const int64_t overlap_hidden = IciComputeOverlapCycles(hidden);
  const int64_t saving = fenced.cycles - hidden.cycles;
  EXPECT_GT(saving, 0);
  EXPECT_GT(overlap_hidden, overlap_fenced);
  // Every cycle of compute moved under the all-gather is a cycle saved.
  EXPECT_NEAR(double(saving), double(overlap_hidden - overlap_fenced),
              0.01 * double(overlap_hidden - overlap_fenced));
  // All of the compute is hidden: the step takes the all-gather's time.
  EXPECT_NEAR(hidden.seconds(), with->timing.collectives[0].seconds(), 1e-3 * hidden.seconds());
  auto us = [&](int64_t cycles) { return double(cycles) / hidden.clock_hz * 1e6; };
  std::printf("allgather_overlap on v4:4x2: %.3f us without latency hiding, %.3f us with; "
              "saved %.3f us; ICI/compute overlap %.3f us without, %.3f us with\n",
              us(fenced.cycles), us(hidden.cycles), us(saving), us(overlap_fenced),
              us(overlap_hidden));
  RecordProperty("step_us_without", std::to_string(us(fenced.cycles)));
  RecordProperty("step_us_with", std::to_string(us(hidden.cycles)));
  RecordProperty("overlap_gained_us", std::to_string(us(overlap_hidden - overlap_fenced)));

  // The all-gather is issued before the matmuls start and they end before
  // it does.
  const SliceTiming& t = with->timing;
  ASSERT_EQ(t.collectives.size(), 1u);
  EXPECT_EQ(t.collectives[0].instruction, "w-start");
  const int64_t gather_start = t.StartCycleOf("w-start");
  ASSERT_GE(gather_start, 0);
  for (const OpTiming& op : t.chip.ops) {
    if (op.unit == "ICI") continue;
    EXPECT_LE(gather_start, op.start_cycle) << op.instruction;
  }
}

TEST(LatencyHidingTiming, TheSchedulerPlansWithTheTimesTheSliceGives) {
  auto with = Compile(true);
  ASSERT_TRUE(with.ok()) << with.status();
  const HloModule& module = *with->compilation.module;
  const HloInstruction* start = nullptr;
  for (const HloInstruction* instr : module.entry_computation()->instructions()) {
    if (IsAsyncCollectiveStart(*instr)) start = instr;
  }
  ASSERT_NE(start, nullptr);
  const IciCollectiveCostModel model(V4Slice().topology);
  auto estimate = model.EstimateSeconds(*start, RequiredDeviceCounts(module));
  ASSERT_TRUE(estimate.ok()) << estimate.status();
  EXPECT_DOUBLE_EQ(*estimate, with->timing.collectives[0].seconds());
  // No collective is charged for the done: it only waits.
  for (const OpTiming& op : with->timing.chip.ops) EXPECT_NE(op.instruction, "w-done");
}

TEST(LatencyHidingTiming, EveryDeviceComputesTheSameValuesWithAndWithout) {
  auto with = Compile(true);
  auto without = Compile(false);
  ASSERT_TRUE(with.ok()) << with.status();
  ASSERT_TRUE(without.ok()) << without.status();
  const HloModule& hidden = *with->compilation.module;
  std::vector<std::vector<Literal>> args;
  for (int64_t d = 0; d < 8; ++d) {
    args.push_back(MakeRandomArguments(*hidden.entry_computation(), 3, uint64_t(d)));
  }
  auto a = EvaluateSpmd(hidden, args, 1, 8);
  auto b = EvaluateSpmd(*without->compilation.module, args, 1, 8);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*a, *b);
}

}  // namespace
}  // namespace systolic::device
