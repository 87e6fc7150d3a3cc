// One run's timeline placed later in another: the same planes and lanes,
// the events shifted with their stats, the flows pointing at the copies.
#include "core/trace/shifted_timeline.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace systolic::trace {
namespace {

TEST(ShiftedTimeline, CopiesEventsStatsAndFlowsLaterIntoTheSamePlanesAndLanes) {
  Timeline run;
  for (int32_t chip = 0; chip < 2; ++chip) {
    TimelinePlane& plane =
        run.AddPlane(absl::StrCat("/device:TPU:", chip), PlaneKind::kDevice, chip);
    plane.mutable_stats().push_back(plane.MakeDoubleStat("clock_hz", 1e9));
    const int32_t line = plane.AddLine("ICI send +x", LaneKind::kIci).id();
    plane.AddEvent(line, "all-reduce", 100, 50,
                   {plane.MakeStringStat("hlo_op", "all-reduce"), plane.MakeIntStat("bytes", 64)});
  }
  run.AddFlow({1, "transfer", "ici", {0, 0, 0}, {1, 0, 0}, 64});

  Timeline into;
  AppendShiftedTimeline(run, 0, into);
  AppendShiftedTimeline(run, 1000, into);
  ASSERT_EQ(into.plane_count(), 2);
  for (int32_t i = 0; i < 2; ++i) {
    const TimelinePlane& plane = into.plane(i);
    EXPECT_EQ(plane.chip_id(), i);
    ASSERT_EQ(plane.stats().size(), 1u) << "plane stats once";
    ASSERT_EQ(plane.line_count(), 1);
    const TimelineLine& line = plane.line(0);
    ASSERT_EQ(line.size(), 2);
    EXPECT_EQ(line.start_ps(0), 100);
    EXPECT_EQ(line.start_ps(1), 1100);
    EXPECT_EQ(line.duration_ps(1), 50);
    ASSERT_EQ(line.stats(1).size(), 2u);
    EXPECT_EQ(plane.stat_name(line.stats(1)[0].name_id), "hlo_op");
    EXPECT_EQ(*plane.StringValue(line.stats(1)[0]), "all-reduce");
    EXPECT_EQ(line.stats(1)[1].int64_value, 64);
  }
  ASSERT_EQ(into.flows().size(), 2u);
  EXPECT_NE(into.flows()[0].id, into.flows()[1].id);
  const Flow& later = into.flows()[1];
  EXPECT_EQ(later.source, (EventRef{0, 0, 1}));
  EXPECT_EQ(later.target, (EventRef{1, 0, 1}));
  EXPECT_EQ(later.bytes, 64);
}

}  // namespace
}  // namespace systolic::trace
