// Timeline frames, painted offscreen into an image the size of a window:
// at full zoom-out and in 10 µs windows at random places, for traces of a
// million and ten million events. The figure that matters is how a frame of
// a huge trace compares with one of a small trace drawn the same way
// (baseline: 10 thousand events); the absolute target is under 16 ms.
// Frames of the same traces without the lanes' overviews (every event in
// the window walked) show what the overviews buy. The twin on real data:
// the scanned decoder sample's profile (over a million events on 8 chips,
// with every lane and flow a run leaves) opened from its file to the first
// frame, then drawn zoomed out and in 10 us windows, against the synthetic
// trace of the same size.
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "core/trace/profile.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "tests/bench/bench_support.h"
#include "tests/bench/scanned_decoder_profile.h"
#include "views/timeline_canvas.h"

namespace systolic::views {
namespace {

constexpr int kChips = 4;
constexpr int kWidth = 1600, kHeight = 1000;
constexpr int64_t kPsPerCycle = 952;  // 1.05 GHz

// A run as the simulator leaves it: per chip two cores of four MXUs, a
// vector unit and a DMA engine, and an ICI link; ops of a step repeated
// with their costs in cycles and a little jitter.
std::shared_ptr<const trace::Profile> MakeTrace(int64_t events) {
  auto p = std::make_shared<trace::Profile>();
  p->chip.clock_hz = 1.05e9;
  std::mt19937_64 rng(7);
  constexpr int kOps = 120;
  std::vector<int64_t> cycles(kOps);
  for (int64_t& c : cycles) c = 100 + int64_t(rng() % 6000);
  const int lanes_per_chip = 2 * 6 + 1;
  const int64_t per_lane = events / (kChips * lanes_per_chip);
  for (int c = 0; c < kChips; ++c) {
    trace::TimelinePlane& plane = p->timeline.AddPlane(absl::StrCat("/device:TPU:", c), trace::PlaneKind::kDevice, c);
    for (int op = 0; op < kOps; ++op) {
      const int32_t id = plane.InternEventName(absl::StrCat("fusion.", op));
      plane.mutable_event_metadata(id).stats = {plane.MakeStringStat("hlo_op", absl::StrCat("fusion.", op)),
                                                plane.MakeIntStat("flops", cycles[op] * 32768)};
    }
    std::vector<trace::TimelineLine*> lanes;
    for (int core = 0; core < 2; ++core) {
      for (int u = 0; u < 4; ++u) {
        lanes.push_back(&plane.AddLine(absl::StrCat("core ", core, " / MXU ", u), trace::LaneKind::kMxu, core, u));
      }
      lanes.push_back(&plane.AddLine(absl::StrCat("core ", core, " / vector"), trace::LaneKind::kVector, core));
      lanes.push_back(&plane.AddLine(absl::StrCat("core ", core, " / DMA 0"), trace::LaneKind::kDma, core, 0));
    }
    lanes.push_back(&plane.AddLine("ICI +x", trace::LaneKind::kIci, -1, 0));
    for (size_t l = 0; l < lanes.size(); ++l) {
      trace::TimelineLine& line = *lanes[l];
      line.Reserve(per_lane);
      int64_t t = 0;
      for (int64_t i = 0; i < per_lane; ++i) {
        const int op = int((i * 37 + int64_t(l)) % kOps);
        const int64_t duration = (cycles[op] + int64_t(rng() % 64)) * kPsPerCycle;
        line.Append(t, duration, op);
        t += duration + (i % 8 == 0 ? int64_t(rng() % 512) * kPsPerCycle : 0);
      }
    }
  }
  p->timeline.Finalize();
  return p;
}

struct Fixture {
  std::shared_ptr<const trace::Profile> profile;
  std::unique_ptr<TimelineCanvas> canvas;
};

// One canvas per trace size and mode, built once (not timed).
Fixture& Get(int64_t events, bool overviews) {
  static std::map<std::pair<int64_t, bool>, Fixture> fixtures;
  static std::map<int64_t, std::shared_ptr<const trace::Profile>> profiles;
  Fixture& f = fixtures[{events, overviews}];
  if (!f.canvas) {
    auto& profile = profiles[events];
    if (!profile) profile = MakeTrace(events);
    f.profile = profile;
    f.canvas = std::make_unique<TimelineCanvas>();
    f.canvas->resize(kWidth, kHeight);
    f.canvas->SetProfile(profile);
    if (overviews) f.canvas->BuildOverviewsNow();
  }
  return f;
}

// One frame per iteration, zoomed out (window 0) or of a random 10 µs
// window (1).
void PaintFrames(benchmark::State& state, Fixture& f, bool windows) {
  TimelineCanvas& canvas = *f.canvas;
  QImage image(canvas.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
  const trace::TimeSpan span = f.profile->timeline.Span();
  std::mt19937_64 rng(1);
  int64_t items = 0;
  for (auto _ : state) {
    if (!windows) {
      canvas.FitAll();
    } else {
      const int64_t window = 10'000'000;  // 10 µs
      const int64_t from = span.start_ps + int64_t(rng() % uint64_t(std::max<int64_t>(span.duration_ps() - window, 1)));
      canvas.ShowRange(double(from), double(from + window));
    }
    QPainter painter(&image);
    canvas.PaintFrame(painter, image.rect());
    painter.end();
    items += canvas.last_frame_items();
    benchmark::DoNotOptimize(image.constBits());
  }
  state.counters["items_per_frame"] = double(items) / double(state.iterations());
  state.counters["events"] = double(f.profile->timeline.event_count());
}

// state.range(0): events; range(1): 0 full zoom-out, 1 10 µs windows;
// range(2): 1 with the lanes' overviews.
void BM_TimelineFrame(benchmark::State& state) {
  PaintFrames(state, Get(state.range(0), state.range(2) != 0), state.range(1) != 0);
}

// The real-sized profile as a file, written once (not timed).
const std::string& RealProfilePath() {
  static const std::string path = [] {
    const trace::Profile* profile = bench::ScannedDecoderProfile();
    std::string p = (std::filesystem::temp_directory_path() / "systolic_views_bench_real.sysprof").string();
    if (profile == nullptr || !trace::WriteProfileFile(*profile, p).ok()) p.clear();
    return p;
  }();
  return path;
}

// range(1) as BM_TimelineFrame's, on the real profile with its overviews.
void BM_RealTimelineFrame(benchmark::State& state) {
  static Fixture fixture;
  if (!fixture.canvas) {
    const trace::Profile* profile = bench::ScannedDecoderProfile();
    if (profile == nullptr) return state.SkipWithError("the scanned decoder sample did not run");
    fixture.profile = std::make_shared<const trace::Profile>(*profile);
    fixture.canvas = std::make_unique<TimelineCanvas>();
    fixture.canvas->resize(kWidth, kHeight);
    fixture.canvas->SetProfile(fixture.profile);
    fixture.canvas->BuildOverviewsNow();
  }
  PaintFrames(state, fixture, state.range(1) != 0);
}

// What opening a profile costs before anything is seen: read the file,
// lay out the lanes, paint the first (zoomed-out) frame; the overviews
// then build in the background (timed apart: BM_*OverviewBuild).
void OpenToFirstFrame(benchmark::State& state, const std::string& path) {
  if (path.empty()) return state.SkipWithError("no profile file");
  int64_t events = 0;
  for (auto _ : state) {
    absl::StatusOr<trace::Profile> read = trace::ReadProfileFile(path);
    if (!read.ok()) return state.SkipWithError(std::string(read.status().message()).c_str());
    auto profile = std::make_shared<const trace::Profile>(*std::move(read));
    events = profile->timeline.event_count();
    auto canvas = std::make_unique<TimelineCanvas>();
    canvas->resize(kWidth, kHeight);
    canvas->SetProfile(profile);
    QImage image(canvas->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    canvas->PaintFrame(painter, image.rect());
    painter.end();
    benchmark::DoNotOptimize(image.constBits());
    state.PauseTiming();  // closing (and the background overviews) is not opening
    canvas.reset();
    profile.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * events);
  state.counters["events"] = double(events);
}

void BM_RealOpenToFirstFrame(benchmark::State& state) { OpenToFirstFrame(state, RealProfilePath()); }

// The synthetic twin: a trace of about the same size, from its file.
void BM_SyntheticOpenToFirstFrame(benchmark::State& state) {
  static const std::string path = [] {
    std::string p = (std::filesystem::temp_directory_path() / "systolic_views_bench_synthetic.sysprof").string();
    if (!trace::WriteProfileFile(*MakeTrace(1'300'000), p).ok()) p.clear();
    return p;
  }();
  OpenToFirstFrame(state, path);
}

void OverviewBuild(benchmark::State& state, std::shared_ptr<const trace::Profile> profile) {
  for (auto _ : state) {
    TimelineCanvas canvas;
    canvas.resize(kWidth, kHeight);
    canvas.SetProfile(profile);
    canvas.BuildOverviewsNow();
    benchmark::DoNotOptimize(canvas.overviews_ready());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * profile->timeline.event_count());
}

void BM_RealOverviewBuild(benchmark::State& state) {
  const trace::Profile* profile = bench::ScannedDecoderProfile();
  if (profile == nullptr) return state.SkipWithError("the scanned decoder sample did not run");
  static auto shared = std::make_shared<const trace::Profile>(*profile);
  OverviewBuild(state, shared);
}

void BM_SyntheticOverviewBuild(benchmark::State& state) { OverviewBuild(state, MakeTrace(1'300'000)); }

BENCHMARK(BM_TimelineFrame)
    ->ArgNames({"events", "window", "overview"})
    ->Args({10'000, 0, 1})
    ->Args({1'000'000, 0, 1})
    ->Args({10'000'000, 0, 1})
    ->Args({10'000, 1, 1})
    ->Args({1'000'000, 1, 1})
    ->Args({10'000'000, 1, 1})
    ->Args({10'000'000, 0, 0})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);
BENCHMARK(BM_RealTimelineFrame)->ArgNames({"real", "window"})->Args({1, 0})->Args({1, 1})
    ->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RealOpenToFirstFrame)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SyntheticOpenToFirstFrame)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_RealOverviewBuild)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SyntheticOverviewBuild)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace systolic::views

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  const std::string base = "BM_TimelineFrame/events:";
  // A huge trace draws about as fast as a small one (goal: within 2x), and
  // each frame stays under 16 ms in absolute terms (see the times).
  DeclareRatio("full zoom-out, 1M events vs 10k", base + "1000000/window:0/overview:1/min_time:1.000",
               base + "10000/window:0/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("full zoom-out, 10M events vs 10k", base + "10000000/window:0/overview:1/min_time:1.000",
               base + "10000/window:0/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("10 us windows, 1M events vs 10k", base + "1000000/window:1/overview:1/min_time:1.000",
               base + "10000/window:1/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("10 us windows, 10M events vs 10k", base + "10000000/window:1/overview:1/min_time:1.000",
               base + "10000/window:1/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("full zoom-out, 10M events: overviews vs every event walked",
               base + "10000000/window:0/overview:1/min_time:1.000",
               base + "10000000/window:0/overview:0/min_time:1.000", Metric::kRealTime, 0.5);
  // Real against synthetic, the same stages: a real trace's frames and its
  // opening should cost about what a synthetic one's of the same size do
  // (goal: within 2x); absolute targets: first frame < 1 s, frames < 16 ms.
  DeclareRatio("full zoom-out, real scanned decoder vs synthetic 1M", "BM_RealTimelineFrame/real:1/window:0/min_time:1.000",
               base + "1000000/window:0/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("10 us windows, real scanned decoder vs synthetic 1M", "BM_RealTimelineFrame/real:1/window:1/min_time:1.000",
               base + "1000000/window:1/overview:1/min_time:1.000", Metric::kRealTime, 2.0);
  DeclareRatio("open to first frame, real vs synthetic (events/s)", "BM_RealOpenToFirstFrame/iterations:3",
               "BM_SyntheticOpenToFirstFrame/iterations:3", Metric::kItemsPerSecond, 0.5);
  DeclareRatio("overview build, real vs synthetic (events/s)", "BM_RealOverviewBuild/iterations:3",
               "BM_SyntheticOverviewBuild/iterations:3", Metric::kItemsPerSecond, 0.5);
  const int result = systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
  for (const char* name : {"systolic_views_bench_real.sysprof", "systolic_views_bench_synthetic.sysprof"}) {
    std::remove((std::filesystem::temp_directory_path() / name).c_str());
  }
  return result;
}
