// The timeline model and the queries views run on it.
#include "core/trace/timeline.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/synthetic_profile.h"

namespace systolic::trace {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TimelineLine MakeLine(const std::vector<std::pair<int64_t, int64_t>>& events) {
  TimelineLine line(0, "core 0 / MXU 0", LaneKind::kMxu, 0, 0);
  for (size_t i = 0; i < events.size(); ++i) {
    line.Append(events[i].first, events[i].second, int32_t(i % 3));
  }
  return line;
}

// Brute force: every event overlapping the window.
std::vector<int64_t> Overlapping(const TimelineLine& line, int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < line.size(); ++i) {
    if (line.Overlaps(i, from, to)) out.push_back(i);
  }
  return out;
}

std::vector<int64_t> FromWindow(const TimelineLine& line, int64_t from, int64_t to) {
  std::vector<int64_t> out;
  EventRange range = line.Window(from, to);
  for (int64_t i = range.begin; i < range.end; ++i) {
    if (line.Overlaps(i, from, to)) out.push_back(i);
  }
  return out;
}

TEST(TimelineLine, AppendKeepsColumnsAndStats) {
  TimelineLine line(3, "core 1 / DMA 0", LaneKind::kDma, 1, 0);
  line.Append(10, 5, 0);
  const Stat stats[] = {Stat::Int64(0, 7), Stat::Double(1, 0.5)};
  line.Append(20, 8, 2, stats);
  line.Append(30, 1, 1);
  EXPECT_EQ(line.size(), 3);
  EXPECT_EQ(line.start_ps(1), 20);
  EXPECT_EQ(line.duration_ps(1), 8);
  EXPECT_EQ(line.end_ps(1), 28);
  EXPECT_EQ(line.metadata_id(1), 2);
  EXPECT_THAT(line.stats(0), IsEmpty());
  EXPECT_THAT(line.stats(1), ElementsAre(Stat::Int64(0, 7), Stat::Double(1, 0.5)));
  EXPECT_THAT(line.stats(2), IsEmpty());
  EXPECT_TRUE(line.sorted());
  EXPECT_EQ(line.min_start_ps(), 10);
  EXPECT_EQ(line.max_end_ps(), 31);
}

TEST(TimelineLine, AppendColumnsEqualsAppendingOneByOne) {
  // Batches that start inside a block, an event out of order, events with
  // stats inside and between batches.
  std::vector<std::pair<int64_t, int64_t>> events;
  for (int64_t i = 0; i < 300; ++i) events.push_back({i * 10 + (i == 150 ? -2000 : 0), 5 + i % 4});
  TimelineLine batched(0, "core 0 / MXU 0", LaneKind::kMxu, 0, 0);
  TimelineLine one_by_one(0, "core 0 / MXU 0", LaneKind::kMxu, 0, 0);
  batched.Append(events[0].first, events[0].second, 0);
  one_by_one.Append(events[0].first, events[0].second, 0);
  const Stat stat[] = {Stat::Int64(0, 1)};
  bool with_stats = false;
  for (size_t begin = 1, n = 0; begin < events.size(); begin += n, with_stats = !with_stats) {
    n = std::min<size_t>(events.size() - begin, 70);
    // Every third event of every other batch has one stat, every fourth a
    // detail.
    std::vector<uint32_t> set_ids, details;
    for (size_t i = 0; with_stats && i < n; ++i) {
      const Stat own[] = {Stat::Int64(1, int64_t(begin + i))};
      set_ids.push_back(i % 3 == 0 ? batched.InternStatSet(own) : 0);
      details.push_back(i % 4 == 0 ? uint32_t(i) : kNoDetail);
    }
    EXPECT_TRUE(batched.AppendColumns(
        int64_t(n),
        [&](int64_t* starts, int64_t* durations, int32_t* ids) {
          for (size_t i = 0; i < n; ++i) {
            starts[i] = events[begin + i].first;
            durations[i] = events[begin + i].second;
            ids[i] = int32_t((begin + i) % 3);
          }
          return true;
        },
        set_ids, details));
    for (size_t i = begin; i < begin + n; ++i) {
      std::vector<Stat> own;
      if (with_stats && (i - begin) % 3 == 0) own.push_back(Stat::Int64(1, int64_t(i)));
      const bool detailed = with_stats && (i - begin) % 4 == 0;
      one_by_one.Append(events[i].first, events[i].second, int32_t(i % 3), own,
                        detailed ? uint32_t(i - begin) : kNoDetail);
    }
    batched.Append(1000000 + begin, 1, 0, stat);
    one_by_one.Append(1000000 + begin, 1, 0, stat);
  }
  // An abandoned batch leaves the lane as it was.
  const int64_t size = batched.size();
  EXPECT_FALSE(batched.AppendColumns(5, [](int64_t*, int64_t*, int32_t*) { return false; }));
  EXPECT_EQ(batched.size(), size);

  EXPECT_TRUE(batched == one_by_one);
  EXPECT_FALSE(batched.sorted());
  EXPECT_EQ(batched.max_end_ps(), one_by_one.max_end_ps());
  batched.Sort();
  one_by_one.Sort();
  EXPECT_TRUE(batched == one_by_one);
  for (int64_t from = -3000; from < 4000; from += 333) {
    EXPECT_EQ(FromWindow(batched, from, from + 100), Overlapping(batched, from, from + 100));
  }
}

TEST(TimelineLine, SortOrdersParentsBeforeChildrenAndReportsMoves) {
  TimelineLine line = MakeLine({{50, 10}, {0, 5}, {50, 100}, {20, 1}});
  EXPECT_FALSE(line.sorted());
  std::vector<int64_t> moved = line.Sort();
  EXPECT_TRUE(line.sorted());
  // Old index -> new index.
  EXPECT_THAT(moved, ElementsAre(3, 0, 2, 1));
  EXPECT_EQ(line.start_ps(2), 50);
  EXPECT_EQ(line.duration_ps(2), 100);  // the longer first on equal starts
  EXPECT_EQ(line.duration_ps(3), 10);
  EXPECT_THAT(line.Sort(), IsEmpty());
}

TEST(TimelineLine, SortCarriesEventStatsAndDetails) {
  TimelineLine line(0, "l", LaneKind::kOther, -1, -1);
  const Stat a[] = {Stat::Int64(0, 1)};
  const Stat b[] = {Stat::Int64(0, 2), Stat::Int64(1, 3)};
  line.Append(30, 1, 0, a, 7);
  line.Append(10, 1, 0);
  line.Append(20, 1, 0, b);
  line.Sort();
  EXPECT_THAT(line.stats(0), IsEmpty());
  EXPECT_THAT(line.stats(1), ElementsAre(Stat::Int64(0, 2), Stat::Int64(1, 3)));
  EXPECT_THAT(line.stats(2), ElementsAre(Stat::Int64(0, 1)));
  EXPECT_EQ(line.detail(0), kNoDetail);
  EXPECT_EQ(line.detail(1), kNoDetail);
  EXPECT_EQ(line.detail(2), 7u);
}

TEST(TimelineLine, EventsWithEqualStatsShareOneSet) {
  TimelineLine line(0, "l", LaneKind::kMxu, 0, 0);
  const Stat tile[] = {Stat::Double(0, 512), Stat::Int64(1, 64)};
  const Stat other[] = {Stat::Double(0, 512), Stat::Int64(1, 65)};
  for (int i = 0; i < 100; ++i) line.Append(i * 10, 5, 0, i % 10 == 9 ? other : tile);
  line.Append(1000, 5, 0);
  EXPECT_EQ(line.stat_set_count(), 3);  // the empty set, `tile` and `other`
  EXPECT_EQ(line.stat_set_id(0), line.stat_set_id(1));
  EXPECT_NE(line.stat_set_id(0), line.stat_set_id(9));
  EXPECT_EQ(line.stat_set_id(100), 0u);
  EXPECT_THAT(line.stats(9), ElementsAre(Stat::Double(0, 512), Stat::Int64(1, 65)));
  // Sets added without interning keep their own ids; interning after the
  // index was dropped still finds them.
  EXPECT_EQ(line.AddStatSet(tile), 3u);
  line.ShrinkToFit();
  EXPECT_EQ(line.InternStatSet(other), line.stat_set_id(9));
  EXPECT_EQ(line.InternStatSet({}), 0u);
}

TEST(TimelineLine, WindowFindsEveryOverlappingEvent) {
  // Long events among many short ones, nested ones, instants: the window
  // must still find all of them, checked against brute force.
  std::vector<std::pair<int64_t, int64_t>> events;
  for (int64_t i = 0; i < 1000; ++i) {
    events.push_back({i * 100, 50});
    if (i % 97 == 0) events.push_back({i * 100, 20000});  // spans ~200 short ones
    if (i % 13 == 0) events.push_back({i * 100 + 60, 0});  // instant
  }
  TimelineLine line = MakeLine(events);
  line.Sort();
  for (auto [from, to] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 100}, {55, 60}, {1000, 1000}, {9750, 12345}, {50000, 50001}, {99990, 200000},
           {-50, 0}, {-50, 1}, {160, 161}, {1360, 1361}}) {
    EXPECT_EQ(FromWindow(line, from, to), Overlapping(line, from, to))
        << "window [" << from << ", " << to << ")";
  }
  // The range is narrow: it does not start at the beginning of the lane.
  EXPECT_GT(line.Window(90000, 90100).begin, 800);
}

TEST(TimelineLine, LevelOfDetailMergesEventsSmallerThanAPixel) {
  // 1000 events of 10 ps every 100 ps, and one of 5000 ps.
  std::vector<std::pair<int64_t, int64_t>> events;
  for (int64_t i = 0; i < 1000; ++i) events.push_back({i * 100, 10});
  events.push_back({20000, 5000});
  TimelineLine line = MakeLine(events);
  line.Sort();
  // 100 pixels over 100000 ps: 1000 ps per pixel.
  std::vector<LodItem> items = line.LevelOfDetail(0, 100000, 100);
  int64_t merged_events = 0, singles = 0, busy = 0;
  for (const LodItem& item : items) {
    if (item.event_index >= 0) {
      ++singles;
      EXPECT_EQ(item.end_ps - item.start_ps, 5000);
      EXPECT_EQ(line.start_ps(item.event_index), 20000);
    } else {
      merged_events += item.event_count;
      EXPECT_LE(item.end_ps - item.start_ps, 1000);
      EXPECT_GE(item.metadata_id, 0);
    }
    busy += item.busy_ps;
  }
  EXPECT_EQ(singles, 1);
  EXPECT_EQ(merged_events, 1000);
  EXPECT_EQ(busy, 1000 * 10 + 5000);
  EXPECT_LE(items.size(), 101u);
  // Zoomed in to 10 ps per pixel every event is drawn on its own.
  items = line.LevelOfDetail(0, 1000, 100);
  ASSERT_EQ(items.size(), 10u);
  for (const LodItem& item : items) EXPECT_GE(item.event_index, 0);
}

TEST(TimelineLine, LevelOfDetailNamesTheBusiestEventOfAColumn) {
  TimelineLine line(0, "l", LaneKind::kOther, -1, -1);
  line.Append(0, 1, 0);
  line.Append(2, 5, 1);
  line.Append(8, 1, 0);
  line.Append(9, 1, 0);
  std::vector<LodItem> items = line.LevelOfDetail(0, 1000, 10);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].event_count, 4);
  EXPECT_EQ(items[0].busy_ps, 8);
  EXPECT_EQ(items[0].metadata_id, 1);  // 5 ps against 3
}

TEST(TimelineLine, BusyTimeCountsOverlapsOnce) {
  TimelineLine line = MakeLine({{0, 100}, {10, 20}, {150, 10}, {155, 10}});
  EXPECT_EQ(line.BusyPs(), 100 + 15);
}

TEST(TimelineLine, StaysWithinThirtyTwoBytesPerEvent) {
  TimelineLine line(0, "l", LaneKind::kOther, -1, -1);
  const int64_t n = 100000;
  line.Reserve(n);
  const Stat stat[] = {Stat::Int64(0, 1)};
  for (int64_t i = 0; i < n; ++i) line.Append(i * 10, 5, 0);
  EXPECT_LE(double(line.MemoryBytes()) / n, 25.0);
  // Per-event stats add their set's id (4 bytes); a set many events share
  // is stored once, and so is a detail string.
  TimelineLine with_stats(0, "l", LaneKind::kOther, -1, -1);
  with_stats.Reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    const Stat tile[] = {Stat::Int64(0, i % 16), Stat::Double(1, 0.5)};
    with_stats.Append(i * 10, 5, 0, i % 3 == 0 ? stat : absl::Span<const Stat>(tile), uint32_t(i % 100));
  }
  with_stats.ShrinkToFit();
  EXPECT_EQ(with_stats.stat_set_count(), 18);
  EXPECT_LE(double(with_stats.MemoryBytes()) / n, 29.0);
}

TEST(TimelinePlane, InternsNamesStatsAndStrings) {
  TimelinePlane plane(0, "/device:TPU:0", PlaneKind::kDevice, 0);
  EXPECT_EQ(plane.InternEventName("dot"), 0);
  EXPECT_EQ(plane.InternEventName("add"), 1);
  EXPECT_EQ(plane.InternEventName("dot"), 0);
  EXPECT_EQ(plane.AddEventMetadata({"dot", "dot (again)", {}}), 2);
  EXPECT_EQ(plane.FindEventName("dot"), 0);
  EXPECT_EQ(plane.FindEventName("nope"), -1);
  Stat s = plane.MakeStringStat("hlo_op", "fusion.1");
  Stat t = plane.MakeStringStat("hlo_module", "fusion.1");
  EXPECT_EQ(s.string_ref, t.string_ref);
  EXPECT_NE(s.name_id, t.name_id);
  EXPECT_EQ(plane.FormatStatValue(s), "fusion.1");
  EXPECT_EQ(plane.FormatStatValue(plane.MakeIntStat("flops", -3)), "-3");
  EXPECT_EQ(plane.FormatStatValue(plane.MakeDoubleStat("u", 0.5)), "0.5");
  EXPECT_EQ(*plane.StringValue(s), "fusion.1");
  EXPECT_EQ(plane.StringValue(plane.MakeIntStat("flops", 1)), nullptr);
  EXPECT_EQ(plane.stat_name(plane.FindStatName("flops")), "flops");
}

TEST(Timeline, FinalizeKeepsFlowsOnTheirEvents) {
  Timeline t;
  TimelinePlane& a = t.AddPlane("/device:TPU:0", PlaneKind::kDevice, 0);
  TimelinePlane& b = t.AddPlane("/device:TPU:1", PlaneKind::kDevice, 1);
  TimelineLine& send = a.AddLine("ICI +x", LaneKind::kIci);
  TimelineLine& recv = b.AddLine("ICI -x", LaneKind::kIci);
  send.Append(500, 10, a.InternEventName("late"));
  send.Append(100, 10, a.InternEventName("send"));
  recv.Append(900, 10, b.InternEventName("late"));
  recv.Append(300, 10, b.InternEventName("recv"));
  t.AddFlow({1, "all-gather", "collective", {0, 0, 1}, {1, 0, 1}, 64});
  t.Finalize();
  EXPECT_EQ(t.EventName(t.flows()[0].source), "send");
  EXPECT_EQ(t.EventName(t.flows()[0].target), "recv");
  EXPECT_EQ(t.flows()[0].source.event, 0);
}

TEST(Timeline, SpanSearchAndLanes) {
  Profile p = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 50});
  const Timeline& t = p.timeline;
  TimeSpan span = t.Span();
  EXPECT_EQ(span.start_ps, 0);
  EXPECT_EQ(span.end_ps, 3000000);  // the host's ExecuteOnLocalDevices
  // By name, ignoring case: the MXU lanes' events.
  std::vector<EventRef> found = t.Search("FUSION.3");
  EXPECT_EQ(found.size(), 2u * 2 * 50);
  for (const EventRef& ref : found) EXPECT_EQ(t.EventName(ref), "fusion.3");
  // By display name.
  EXPECT_EQ(t.Search("HBM -> VMEM").size(), 2u * 50);
  // By an hlo_op stat of the event itself (every fifth event on each lane
  // carries "op.<i % 3>"; "op.1" also matches nothing else).
  found = t.Search("op.1");
  EXPECT_FALSE(found.empty());
  for (const EventRef& ref : found) {
    const TimelinePlane& plane = t.plane(ref.plane);
    bool has = false;
    for (const Stat& s : t.line(ref).stats(ref.event)) {
      if (plane.stat_name(s.name_id) == "hlo_op" && plane.FormatStatValue(s) == "op.1") has = true;
    }
    EXPECT_TRUE(has);
  }
  EXPECT_EQ(t.Search("fusion", 7).size(), 7u);
  EXPECT_TRUE(t.Search("no such op").empty());

  std::vector<LaneSummary> lanes = t.Lanes();
  ASSERT_EQ(lanes.size(), 2u * 6 + 1);
  EXPECT_EQ(lanes[0].line_name, "core 0 / MXU 0");
  EXPECT_EQ(lanes[0].plane_name, "/device:TPU:0");
  EXPECT_EQ(lanes[0].event_count, 50);
  EXPECT_EQ(lanes.back().line_name, "python3");
  EXPECT_EQ(t.event_count(), 2 * (5 * 50 + 3) + 2);
  EXPECT_EQ(t.FindChipPlane(1)->name(), "/device:TPU:1");
  EXPECT_EQ(t.FindChipPlane(-1)->name(), "/host:CPU");
  EXPECT_EQ(t.FindChipPlane(5), nullptr);
}

}  // namespace
}  // namespace systolic::trace
