// The Chrome trace export read back with a JSON parser and held against the
// format's rules: required fields per phase, microsecond times, events on
// one thread nesting or apart, flows bound to existing events.
#include "core/trace/chrome_trace_exporter.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/synthetic_profile.h"

namespace systolic::trace {
namespace {

using json = nlohmann::json;

// Integer nanoseconds of a microsecond figure printed with three decimals.
int64_t Ns(const json& micros) { return std::llround(micros.get<double>() * 1000); }

struct Slice {
  int64_t ts, end;
};

using Threads = std::map<std::pair<int64_t, int64_t>, std::vector<Slice>>;

// Checks `trace` against the format's rules; fills the complete events per
// (pid, tid).
void CheckTrace(const json& trace, Threads* threads_out = nullptr) {
  Threads local;
  Threads& threads = threads_out != nullptr ? *threads_out : local;
  EXPECT_TRUE(trace.is_object());
  EXPECT_TRUE(trace.contains("traceEvents"));
  const json& events = trace["traceEvents"];
  EXPECT_TRUE(events.is_array());
  std::set<int64_t> named_processes;
  std::set<std::pair<int64_t, int64_t>> named_threads;
  std::map<int64_t, std::vector<json>> flows;
  for (const json& e : events) {
    ASSERT_TRUE(e.contains("ph")) << e;
    const std::string ph = e["ph"];
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer()) << e;
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer()) << e;
    ASSERT_TRUE(e.contains("name") && e["name"].is_string()) << e;
    const int64_t pid = e["pid"], tid = e["tid"];
    if (ph == "X") {
      ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e;
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number()) << e;
      ASSERT_GE(e["dur"].get<double>(), 0) << e;
      if (e.contains("args")) {
        ASSERT_TRUE(e["args"].is_object()) << e;
      }
      threads[{pid, tid}].push_back({Ns(e["ts"]), Ns(e["ts"]) + Ns(e["dur"])});
    } else if (ph == "M") {
      ASSERT_TRUE(e.contains("args") && e["args"].is_object()) << e;
      const std::string name = e["name"];
      if (name == "process_name") {
        ASSERT_TRUE(e["args"]["name"].is_string()) << e;
        named_processes.insert(pid);
      } else if (name == "thread_name") {
        ASSERT_TRUE(e["args"]["name"].is_string()) << e;
        named_threads.insert({pid, tid});
      } else {
        ASSERT_TRUE(name == "process_sort_index" || name == "thread_sort_index") << e;
        ASSERT_TRUE(e["args"]["sort_index"].is_number_integer()) << e;
      }
    } else if (ph == "s" || ph == "f") {
      ASSERT_TRUE(e.contains("id")) << e;
      ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e;
      ASSERT_TRUE(e.contains("cat") && e["cat"].is_string()) << e;
      if (ph == "f") {
        EXPECT_EQ(e.value("bp", ""), "e") << e;
      }
      flows[e["id"].get<int64_t>()].push_back(e);
    } else {
      ADD_FAILURE() << "unexpected phase " << e;
    }
  }
  // Every thread and process with events is named.
  for (const auto& [key, slices] : threads) {
    EXPECT_TRUE(named_threads.count(key)) << key.first << "/" << key.second;
    EXPECT_TRUE(named_processes.count(key.first)) << key.first;
  }
  // On one thread complete events nest or do not overlap.
  for (auto& [key, slices] : threads) {
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.end > b.end;
    });
    std::vector<int64_t> open;
    for (const Slice& s : slices) {
      while (!open.empty() && open.back() <= s.ts) open.pop_back();
      ASSERT_TRUE(open.empty() || s.end <= open.back())
          << "thread " << key.first << "/" << key.second << ": [" << s.ts << ", " << s.end
          << ") overlaps an event ending at " << open.back();
      open.push_back(s.end);
    }
  }
  // Each flow has one start and one finish, each inside a complete event of
  // its thread.
  for (const auto& [id, ends] : flows) {
    ASSERT_EQ(ends.size(), 2u) << "flow " << id;
    EXPECT_EQ(ends[0]["ph"], "s");
    EXPECT_EQ(ends[1]["ph"], "f");
    for (const json& end : ends) {
      const auto& slices = threads[{end["pid"].get<int64_t>(), end["tid"].get<int64_t>()}];
      const int64_t ts = Ns(end["ts"]);
      EXPECT_TRUE(std::any_of(slices.begin(), slices.end(),
                              [&](const Slice& s) { return s.ts <= ts && ts <= s.end; }))
          << "flow end outside any event: " << end;
    }
  }
}

json Export(const Profile& profile, ChromeTraceStats* stats = nullptr) {
  std::string text;
  StringByteSink sink(&text);
  absl::Status status = ExportChromeTrace(profile, &sink, stats);
  EXPECT_TRUE(status.ok()) << status;
  return json::parse(text);
}

TEST(ChromeTrace, FollowsTheFormat) {
  const Profile profile = testing::MakeSampleProfile();
  ChromeTraceStats stats;
  const json trace = Export(profile, &stats);
  Threads threads;
  CheckTrace(trace, &threads);
  EXPECT_EQ(stats.complete_events, profile.timeline.event_count());
  EXPECT_EQ(stats.flow_events, 2 * int64_t(profile.timeline.flows().size()));
  int64_t complete = 0;
  for (const auto& [key, slices] : threads) complete += int64_t(slices.size());
  EXPECT_EQ(complete, profile.timeline.event_count());
  EXPECT_EQ(trace["otherData"]["producer"], "systolic tests");
}

TEST(ChromeTrace, TimesAreMicrosecondsAndStatsAreArgs) {
  const Profile profile = testing::MakeSampleProfile({.chips = 1, .events_per_lane = 20});
  const json trace = Export(profile);
  const TimelineLine& mxu = profile.timeline.plane(0).line(0);
  std::map<std::string, std::string> thread_names;
  std::vector<json> mxu_events;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") {
      thread_names[std::to_string(e["pid"].get<int>()) + "/" + std::to_string(e["tid"].get<int>())] =
          e["args"]["name"];
    }
  }
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X" &&
        thread_names[std::to_string(e["pid"].get<int>()) + "/" + std::to_string(e["tid"].get<int>())] ==
            "core 0 / MXU 0") {
      mxu_events.push_back(e);
    }
  }
  ASSERT_EQ(int64_t(mxu_events.size()), mxu.size());
  // Event 5 starts at 50000 ps = 0.05 us.
  const json& e = mxu_events[5];
  EXPECT_EQ(Ns(e["ts"]), mxu.start_ps(5) / 1000);
  EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.05);
  EXPECT_EQ(Ns(e["dur"]), mxu.end_ps(5) / 1000 - mxu.start_ps(5) / 1000);
  EXPECT_EQ(e["name"], "fusion.3");
  EXPECT_EQ(e["cat"], "MXU");
  EXPECT_EQ(e["args"]["flops"], 2 * 8 * 16 * 4);
  EXPECT_EQ(e["args"]["bytes"], -6);
  EXPECT_EQ(e["args"]["cycles"], std::numeric_limits<uint64_t>::max() - 5);
  EXPECT_DOUBLE_EQ(e["args"]["utilisation"].get<double>(), 1.25);
  // The event's own hlo_op wins over its name's.
  EXPECT_EQ(e["args"]["hlo_op"], "op.2");
  EXPECT_EQ(mxu_events[10]["args"]["utilisation"], "nan");
  EXPECT_FALSE(mxu_events[1].contains("args") && mxu_events[1]["args"].contains("bytes"));
}

TEST(ChromeTrace, PartialOverlapsMoveToExtraThreads) {
  Profile p;
  TimelinePlane& plane = p.timeline.AddPlane("/device:TPU:0", PlaneKind::kDevice, 0);
  TimelineLine& dma = plane.AddLine("core 0 / DMA 0", LaneKind::kDma, 0, 0);
  const int32_t copy = plane.InternEventName("copy");
  // A queue: each transfer starts before the previous one ends.
  for (int i = 0; i < 50; ++i) dma.Append(i * 1000000, 2500000, copy);
  dma.Append(0, 100000000, plane.InternEventName("\xff invalid utf-8 \"quoted\""));
  // Sub-nanosecond events nested in a parent.
  for (int i = 0; i < 10; ++i) dma.Append(60000000 + i * 100, 400, copy);
  p.timeline.Finalize();
  ChromeTraceStats stats;
  const json trace = Export(p, &stats);
  CheckTrace(trace);
  EXPECT_GE(stats.threads, 3);
  std::set<std::string> names;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names.insert(e["args"]["name"]);
  }
  EXPECT_TRUE(names.count("core 0 / DMA 0"));
  EXPECT_TRUE(names.count("core 0 / DMA 0 #2"));
}

TEST(ChromeTrace, LargeTraceStreamsThroughTheSink) {
  const Profile profile = testing::MakeSampleProfile({.chips = 4, .events_per_lane = 5000});
  // A sink that sees the text in pieces, none of them the whole trace.
  class CountingSink : public ByteSink {
   public:
    absl::Status Write(absl::string_view bytes) override {
      ++writes;
      largest = std::max(largest, bytes.size());
      text.append(bytes.data(), bytes.size());
      return absl::OkStatus();
    }
    int writes = 0;
    size_t largest = 0;
    std::string text;
  } sink;
  ChromeTraceStats stats;
  ASSERT_TRUE(ExportChromeTrace(profile, &sink, &stats).ok());
  EXPECT_GT(sink.writes, 3);
  EXPECT_LT(sink.largest, sink.text.size() / 2);
  EXPECT_EQ(stats.bytes, int64_t(sink.text.size()));
  CheckTrace(json::parse(sink.text));
}

}  // namespace
}  // namespace systolic::trace
