// Zoomed-out levels of detail from the lane summary agree with the exact
// ones computed from every event.
#include "core/analysis/lane_overview.h"

#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

// Back-to-back events with gaps, mostly short, now and then a long one;
// name 0 fills most of the time.
trace::TimelineLine MakeLane(int64_t events, uint64_t seed) {
  trace::TimelineLine line(0, "core 0 / MXU 0", trace::LaneKind::kMxu, 0, 0);
  std::mt19937_64 rng(seed);
  int64_t t = 1000;
  for (int64_t i = 0; i < events; ++i) {
    const bool long_one = i % 997 == 0;
    const int64_t duration = long_one ? 2'000'000 + int64_t(rng() % 1'000'000) : 500 + int64_t(rng() % 1500);
    line.Append(t, duration, i % 10 == 0 ? 1 : 0);
    t += duration + int64_t(rng() % 400);
  }
  return line;
}

int64_t Busy(const std::vector<trace::LodItem>& items) {
  int64_t busy = 0;
  for (const trace::LodItem& item : items) busy += item.busy_ps;
  return busy;
}

TEST(LaneOverview, SmallLanesAreDrawnExactly) {
  const trace::TimelineLine line = MakeLane(1000, 1);
  const LaneOverview overview = LaneOverview::Build(line);
  EXPECT_TRUE(overview.empty());
  const auto exact = line.LevelOfDetail(line.min_start_ps(), line.max_end_ps(), 800);
  const auto drawn = overview.LevelOfDetail(line, line.min_start_ps(), line.max_end_ps(), 800);
  ASSERT_EQ(drawn.size(), exact.size());
  for (size_t i = 0; i < exact.size(); ++i) {
    EXPECT_EQ(drawn[i].start_ps, exact[i].start_ps);
    EXPECT_EQ(drawn[i].event_index, exact[i].event_index);
  }
}

TEST(LaneOverview, ZoomedOutItMatchesTheExactLevelOfDetail) {
  const trace::TimelineLine line = MakeLane(200'000, 2);
  const LaneOverview overview = LaneOverview::Build(line);
  ASSERT_FALSE(overview.empty());
  EXPECT_GT(overview.level_count(), 10);
  EXPECT_LE(overview.MemoryBytes(), int64_t(2 * 65537 * 40));

  for (int width : {300, 1000, 2000}) {
    for (const auto& [from, to] : std::vector<std::pair<int64_t, int64_t>>{
             {line.min_start_ps(), line.max_end_ps()},
             {line.min_start_ps() + 12'345'678, line.min_start_ps() + 90'000'000}}) {
      const double ps_per_px = double(to - from) / width;
      ASSERT_GE(ps_per_px, 2.0 * overview.base_bucket_ps());
      const auto exact = line.LevelOfDetail(from, to, width);
      const auto drawn = overview.LevelOfDetail(line, from, to, width);
      // In time order, inside the window, never wider than a pixel unless
      // it is one event.
      for (size_t i = 0; i < drawn.size(); ++i) {
        if (i > 0) {
          EXPECT_LE(drawn[i - 1].start_ps, drawn[i].start_ps);
        }
        EXPECT_GE(drawn[i].start_ps, from);
        EXPECT_LE(drawn[i].end_ps, to);
        if (drawn[i].event_index < 0) {
          EXPECT_LE(double(drawn[i].end_ps - drawn[i].start_ps), 1.5 * ps_per_px + 1);
        }
      }
      // Every event at least a pixel wide is drawn as itself.
      std::vector<int64_t> exact_events, drawn_events;
      for (const trace::LodItem& item : exact) {
        if (item.event_index >= 0) exact_events.push_back(item.event_index);
      }
      for (const trace::LodItem& item : drawn) {
        if (item.event_index >= 0) drawn_events.push_back(item.event_index);
      }
      for (int64_t e : exact_events) {
        EXPECT_TRUE(std::find(drawn_events.begin(), drawn_events.end(), e) != drawn_events.end())
            << "event " << e << " at width " << width;
      }
      // The busy time drawn is the busy time there is, give or take the
      // long events counted both ways and the buckets cut at the edges.
      const double exact_busy = double(Busy(exact));
      EXPECT_NEAR(double(Busy(drawn)), exact_busy, 0.06 * exact_busy) << width;
      // Columns are named after the name that fills most of their time.
      int64_t name0 = 0, columns = 0;
      for (const trace::LodItem& item : drawn) {
        if (item.event_index >= 0) continue;
        ++columns;
        name0 += item.metadata_id == 0;
      }
      EXPECT_GT(name0, columns * 8 / 10);
    }
  }
}

TEST(LaneOverview, ZoomedInTheExactLevelOfDetailAnswers) {
  const trace::TimelineLine line = MakeLane(200'000, 3);
  const LaneOverview overview = LaneOverview::Build(line);
  ASSERT_FALSE(overview.empty());
  const int64_t from = line.start_ps(5000), to = from + 10 * overview.base_bucket_ps();
  const auto exact = line.LevelOfDetail(from, to, 1000);
  const auto drawn = overview.LevelOfDetail(line, from, to, 1000);
  ASSERT_EQ(drawn.size(), exact.size());
  for (size_t i = 0; i < exact.size(); ++i) {
    EXPECT_EQ(drawn[i].start_ps, exact[i].start_ps);
    EXPECT_EQ(drawn[i].end_ps, exact[i].end_ps);
    EXPECT_EQ(drawn[i].event_count, exact[i].event_count);
  }
  EXPECT_TRUE(overview.LevelOfDetail(line, 10, 10, 100).empty());
}

TEST(LaneOverview, EventsBegunBeforeTheWindowAreKept) {
  trace::TimelineLine line(0, "steps", trace::LaneKind::kSteps, -1, -1);
  line.Append(0, 1'000'000'000, 7);  // one long step
  for (int64_t i = 0; i < 10'000; ++i) line.Append(10 + i * 100'000, 50'000, 1);
  const LaneOverview overview = LaneOverview::Build(line, 1 << 12, 100);
  ASSERT_FALSE(overview.empty());
  const auto drawn = overview.LevelOfDetail(line, 400'000'000, 900'000'000, 500);
  bool step = false;
  for (const trace::LodItem& item : drawn) step |= item.event_index == 0;
  EXPECT_TRUE(step);
}

}  // namespace
}  // namespace systolic::analysis
