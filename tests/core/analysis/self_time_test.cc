#include "core/analysis/self_time.h"

#include <gtest/gtest.h>

namespace systolic::analysis {
namespace {

// Owners 0..2; priority 0 beats 1 beats 2; figures by hand.
TEST(SelfTime, EachInstantGoesToOneEventAndTheRestIsIdle) {
  const std::vector<SelfTimeEvent> events = {
      {0, 100, 1, 0},    // vector [0, 100)
      {50, 150, 0, 1},   // MXU [50, 150): wins [50, 150)
      {140, 200, 2, 2},  // DMA [140, 200): alone from 150
      {300, 400, 1, 0},  // outside the window: not counted
  };
  const SelfTime self = AttributeSelfTime(events, {{0, 250}}, 3);
  EXPECT_EQ(self.owner_ps, (std::vector<int64_t>{50, 100, 50}));
  EXPECT_EQ(self.idle_ps, 50);  // [200, 250)
  EXPECT_EQ(self.measured_ps, 250);
}

// Equal priority: the earlier-started event keeps the instant.
TEST(SelfTime, OnOneUnitKindTheEarlierEventKeepsTheInstant) {
  const SelfTime self = AttributeSelfTime({{0, 100, 0, 0}, {20, 120, 0, 1}}, {{0, 120}}, 2);
  EXPECT_EQ(self.owner_ps, (std::vector<int64_t>{100, 20}));
  EXPECT_EQ(self.idle_ps, 0);
}

// Several windows (steps), unordered and touching; events straddling them
// count only inside.
TEST(SelfTime, OnlyTheWindowsAreMeasured) {
  const SelfTime self =
      AttributeSelfTime({{0, 1000, 0, 0}}, {{600, 700}, {100, 200}, {200, 250}, {690, 720}}, 1);
  EXPECT_EQ(self.measured_ps, 270);  // [100, 250) and [600, 720)
  EXPECT_EQ(self.owner_ps[0], 270);
  EXPECT_EQ(self.idle_ps, 0);
  const SelfTime none = AttributeSelfTime({}, {{0, 10}}, 0);
  EXPECT_EQ(none.idle_ps, 10);
  EXPECT_TRUE(none.owner_ps.empty());
}

}  // namespace
}  // namespace systolic::analysis
