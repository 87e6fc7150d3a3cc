// Profiles on disk: writing, reading and searching 10 million synthetic
// events, in events per second, with bytes per event on disk and in memory
// as counters. Reading is held against a plain decode of the same events'
// varint columns from memory (no file, no checksum, no decompression, no
// protobuf), measured in the same run. Each stage has a twin on a real-sized
// profile (the scanned decoder sample simulated on 8 chips, over a million
// events with their stat sets, details and flows), held against the
// synthetic figure: real events must not cost much more than synthetic ones.
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "tests/bench/bench_support.h"
#include "tests/bench/scanned_decoder_profile.h"

namespace systolic::trace {
namespace {

constexpr int64_t kEvents = 10'000'000;
constexpr int kChips = 4;
constexpr int kLanesPerChip = 4;
constexpr int kOpNames = 200;
constexpr int64_t kPsPerCycle = 952;  // 1.05 GHz

// What a simulated run of a few thousand steps leaves: per lane, ops of a
// step repeated with their costs in cycles, a little jitter from contention,
// and small gaps; op names and their flops are per plane.
const Profile& TenMillionEvents() {
  static const Profile* profile = [] {
    auto* p = new Profile();
    std::mt19937_64 rng(1);
    std::vector<int64_t> cycles(kOpNames);
    for (int64_t& c : cycles) c = 200 + int64_t(rng() % 20000);
    const int64_t per_lane = kEvents / (kChips * kLanesPerChip);
    const char* lanes[kLanesPerChip] = {"core 0 / MXU 0", "core 0 / MXU 1", "core 0 / vector",
                                        "core 0 / DMA 0"};
    for (int c = 0; c < kChips; ++c) {
      TimelinePlane& plane = p->timeline.AddPlane(absl::StrCat("/device:TPU:", c),
                                                  PlaneKind::kDevice, c);
      for (int op = 0; op < kOpNames; ++op) {
        const int32_t id = plane.InternEventName(absl::StrCat("fusion.", op));
        plane.mutable_event_metadata(id).stats = {plane.MakeIntStat("flops", cycles[op] * 32768),
                                                  plane.MakeStringStat("hlo_op", absl::StrCat("fusion.", op))};
      }
      for (int l = 0; l < kLanesPerChip; ++l) {
        TimelineLine& line = plane.AddLine(lanes[l], l < 2 ? LaneKind::kMxu : l == 2 ? LaneKind::kVector : LaneKind::kDma, 0, l % 2);
        line.Reserve(per_lane);
        int64_t t = 0;
        for (int64_t i = 0; i < per_lane; ++i) {
          const int op = int((i * 37 + l) % kOpNames);
          const int64_t duration = (cycles[op] + int64_t(rng() % 64)) * kPsPerCycle;
          line.Append(t, duration, op);
          t += duration + (i % 8 == 0 ? int64_t(rng() % 512) * kPsPerCycle : 0);
        }
      }
    }
    p->timeline.Finalize();
    return p;
  }();
  return *profile;
}

std::string BenchPath(const char* name = "systolic_trace_bench.sysprof") {
  return (std::filesystem::temp_directory_path() / name).string();
}

void WriteAndCount(benchmark::State& state, const Profile& profile, const std::string& path) {
  const int64_t events = profile.timeline.event_count();
  for (auto _ : state) {
    absl::Status status = WriteProfileFile(profile, path);
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
  }
  const double bytes = double(std::filesystem::file_size(path));
  state.SetItemsProcessed(int64_t(state.iterations()) * events);
  state.counters["events"] = double(events);
  state.counters["disk_bytes_per_event"] = bytes / double(events);
  state.counters["memory_bytes_per_event"] =
      double(profile.timeline.MemoryBytes()) / double(events);
}

void ReadAndCount(benchmark::State& state, const Profile& written, const std::string& path) {
  const int64_t events = written.timeline.event_count();
  if (!std::filesystem::exists(path) && !WriteProfileFile(written, path).ok()) {
    state.SkipWithError("cannot write the profile");
    return;
  }
  double memory = 0;
  for (auto _ : state) {
    absl::StatusOr<Profile> profile = ReadProfileFile(path);
    if (!profile.ok() || profile->timeline.event_count() != events) {
      state.SkipWithError("read failed");
      return;
    }
    memory = double(profile->timeline.MemoryBytes());
    state.PauseTiming();  // freeing millions of events is not reading them
    profile = Profile();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * events);
  state.counters["events"] = double(events);
  state.counters["memory_bytes_per_event"] = memory / double(events);
  state.counters["disk_bytes_per_event"] =
      double(std::filesystem::file_size(path)) / double(events);
}

// Ctrl+F on the timeline: every event's name, display name and naming
// stats against a needle that matches a small share of them.
void SearchAndCount(benchmark::State& state, const Profile& profile, const char* needle) {
  const int64_t events = profile.timeline.event_count();
  size_t found = 0;
  for (auto _ : state) {
    found = profile.timeline.Search(needle).size();
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * events);
  state.counters["events"] = double(events);
  state.counters["found"] = double(found);
}

void BM_WriteProfile(benchmark::State& state) {
  WriteAndCount(state, TenMillionEvents(), BenchPath());
}

void BM_ReadProfile(benchmark::State& state) {
  ReadAndCount(state, TenMillionEvents(), BenchPath());
}

void BM_SearchProfile(benchmark::State& state) {
  SearchAndCount(state, TenMillionEvents(), "fusion.17");
}

constexpr char kRealPath[] = "systolic_trace_bench_real.sysprof";

void BM_WriteRealProfile(benchmark::State& state) {
  const Profile* profile = bench::ScannedDecoderProfile();
  if (profile == nullptr) return state.SkipWithError("the scanned decoder sample did not run");
  WriteAndCount(state, *profile, BenchPath(kRealPath));
}

void BM_ReadRealProfile(benchmark::State& state) {
  const Profile* profile = bench::ScannedDecoderProfile();
  if (profile == nullptr) return state.SkipWithError("the scanned decoder sample did not run");
  ReadAndCount(state, *profile, BenchPath(kRealPath));
}

void BM_SearchRealProfile(benchmark::State& state) {
  const Profile* profile = bench::ScannedDecoderProfile();
  if (profile == nullptr) return state.SkipWithError("the scanned decoder sample did not run");
  SearchAndCount(state, *profile, "all-gather");
}

// The events' columns as varints in memory, as the file holds them before
// compression and framing.
struct VarintColumns {
  std::string starts, durations, ids;
};

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(char(v | 0x80));
    v >>= 7;
  }
  out->push_back(char(v));
}

const std::vector<VarintColumns>& Columns() {
  static const auto* columns = [] {
    auto* out = new std::vector<VarintColumns>();
    for (const TimelinePlane& plane : TenMillionEvents().timeline.planes()) {
      for (const TimelineLine& line : plane.lines()) {
        VarintColumns& c = out->emplace_back();
        int64_t previous = 0;
        for (int64_t i = 0; i < line.size(); ++i) {
          const int64_t delta = line.start_ps(i) - previous;
          previous = line.start_ps(i);
          PutVarint(&c.starts, uint64_t((delta << 1) ^ (delta >> 63)));
          PutVarint(&c.durations, uint64_t(line.duration_ps(i)));
          PutVarint(&c.ids, uint64_t(line.metadata_id(i)));
        }
      }
    }
    return out;
  }();
  return *columns;
}

const char* GetVarint(const char* p, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0;; shift += 7) {
    const uint64_t byte = uint8_t(*p++);
    result |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  *v = result;
  return p;
}

// Baseline: decode the varint columns into the model's column vectors.
void BM_DecodeVarintColumns(benchmark::State& state) {
  const auto& columns = Columns();
  for (auto _ : state) {
    for (const VarintColumns& c : columns) {
      std::vector<int64_t> starts, durations;
      std::vector<int32_t> ids;
      const char *s = c.starts.data(), *d = c.durations.data(), *m = c.ids.data();
      const char* end = s + c.starts.size();
      int64_t start = 0;
      while (s < end) {
        uint64_t zigzag, duration, id;
        s = GetVarint(s, &zigzag);
        d = GetVarint(d, &duration);
        m = GetVarint(m, &id);
        start += int64_t(zigzag >> 1) ^ -int64_t(zigzag & 1);
        starts.push_back(start);
        durations.push_back(int64_t(duration));
        ids.push_back(int32_t(id));
      }
      benchmark::DoNotOptimize(starts.data());
      benchmark::DoNotOptimize(durations.data());
      benchmark::DoNotOptimize(ids.data());
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kEvents);
}

BENCHMARK(BM_WriteProfile)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ReadProfile)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_DecodeVarintColumns)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_SearchProfile)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_WriteRealProfile)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ReadRealProfile)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_SearchRealProfile)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace systolic::trace

int main(int argc, char** argv) {
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  // Absolute targets: read >= 20M events/s, <= 32 bytes per event in
  // memory, <= 8 on disk (the counters). Reading a file — framing,
  // checksums, zstd, protobuf, validation — should keep within a small
  // factor of decoding the bare columns.
  DeclareRatio("read profile vs bare varint decode of the same events", "BM_ReadProfile/iterations:5",
               "BM_DecodeVarintColumns/iterations:5", Metric::kItemsPerSecond, 0.3);
  // The real-sized twins: events of a real run (stat sets, details, flows,
  // every kind of lane) against synthetic ones. The absolute targets are
  // read >= 20M events/s (0.6 of the synthetic rate here) and write >= 5M
  // events/s (0.3), <= 48 bytes per event in memory.
  DeclareRatio("write, real scanned decoder vs synthetic (events/s)",
               "BM_WriteRealProfile/iterations:3", "BM_WriteProfile/iterations:3",
               Metric::kItemsPerSecond, 0.3);
  DeclareRatio("read, real scanned decoder vs synthetic (events/s)",
               "BM_ReadRealProfile/iterations:5", "BM_ReadProfile/iterations:5",
               Metric::kItemsPerSecond, 0.6);
  DeclareRatio("search, real scanned decoder vs synthetic (events/s)",
               "BM_SearchRealProfile/iterations:3", "BM_SearchProfile/iterations:3",
               Metric::kItemsPerSecond, 0.5);
  const int result = systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
  for (const char* name : {"systolic_trace_bench.sysprof", systolic::trace::kRealPath}) {
    std::remove((std::filesystem::temp_directory_path() / name).c_str());
  }
  return result;
}
