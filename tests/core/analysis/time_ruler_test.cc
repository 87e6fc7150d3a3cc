// Ruler ticks at round values in the unit that suits the zoom.
#include "core/analysis/time_ruler.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

std::vector<std::string> MajorLabels(const TimeRuler& ruler) {
  std::vector<std::string> labels;
  for (const RulerTick& t : ruler.ticks) {
    if (t.major) labels.push_back(t.label);
  }
  return labels;
}

TEST(TimeRuler, NanosecondsForAMicrosecond) {
  const TimeRuler ruler = ComputeTimeRuler(0, 1'000'000, 1000);
  EXPECT_EQ(ruler.unit, "ns");
  EXPECT_EQ(ruler.major_step_ps, 100'000);
  EXPECT_EQ(ruler.ticks.size(), 51u);  // a minor tick every 20 ns
  EXPECT_THAT(MajorLabels(ruler), ::testing::ElementsAre("0 ns", "100 ns", "200 ns", "300 ns",
                                                         "400 ns", "500 ns", "600 ns", "700 ns",
                                                         "800 ns", "900 ns", "1000 ns"));
  for (size_t i = 1; i < ruler.ticks.size(); ++i) {
    EXPECT_LT(ruler.ticks[i - 1].ps, ruler.ticks[i].ps);
    EXPECT_EQ(ruler.ticks[i].major, !ruler.ticks[i].label.empty());
  }
}

TEST(TimeRuler, TheUnitFollowsTheZoom) {
  EXPECT_EQ(ComputeTimeRuler(0, 10'000'000'000, 1000).unit, "ms");
  EXPECT_EQ(ComputeTimeRuler(0, 10'000'000, 1000).unit, "µs");
  EXPECT_EQ(ComputeTimeRuler(0, 1000, 1000).unit, "ps");
  EXPECT_EQ(ComputeTimeRuler(0, 10'000'000'000'000, 1000).unit, "s");
  // A window far from zero keeps round labels with the decimals needed.
  const TimeRuler offset = ComputeTimeRuler(1'234'567'000, 1'234'667'000, 1000);
  EXPECT_EQ(offset.unit, "ns");
  EXPECT_EQ(MajorLabels(offset).front(), "1234570 ns");
  const TimeRuler fine = ComputeTimeRuler(1'500'000, 1'500'400, 1000, {.min_label_spacing_px = 100});
  EXPECT_EQ(fine.major_step_ps, 50);
  EXPECT_EQ(fine.unit, "ps");
  const TimeRuler decimals = ComputeTimeRuler(0, 5'000'000, 100, {.min_label_spacing_px = 50});
  EXPECT_EQ(decimals.unit, "µs");
  EXPECT_THAT(MajorLabels(decimals), ::testing::ElementsAre("0 µs", "5 µs"));
}

TEST(TimeRuler, CyclesOfTheClock) {
  RulerOptions cycles;
  cycles.clock_hz = 1e9;  // a cycle is 1000 ps
  const TimeRuler ruler = ComputeTimeRuler(0, 1'000'000, 1000, cycles);
  EXPECT_EQ(ruler.unit, "cycles");
  EXPECT_EQ(ruler.major_step_ps, 100'000);
  EXPECT_EQ(MajorLabels(ruler)[1], "100");
  const TimeRuler large = ComputeTimeRuler(0, 1'000'000'000, 1000, cycles);
  EXPECT_EQ(MajorLabels(large)[1], "100k");
  // Never less than a cycle between ticks.
  const TimeRuler tight = ComputeTimeRuler(0, 2000, 1000, cycles);
  EXPECT_GE(tight.major_step_ps, 1000);
}

TEST(TimeRuler, DegenerateWindowsHaveNoTicks) {
  EXPECT_TRUE(ComputeTimeRuler(10, 10, 100).ticks.empty());
  EXPECT_TRUE(ComputeTimeRuler(0, 100, 0).ticks.empty());
}

TEST(FormatPs, FourSignificantDigits) {
  EXPECT_EQ(FormatPs(850), "850 ps");
  EXPECT_EQ(FormatPs(12'500), "12.50 ns");
  EXPECT_EQ(FormatPs(3'001'000), "3.001 µs");
  EXPECT_EQ(FormatPs(250'000'000), "250.0 µs");
  EXPECT_EQ(FormatPs(1'200'000'000'000), "1.200 s");
  EXPECT_EQ(FormatPs(-2'000), "-2.000 ns");
  EXPECT_EQ(FormatCycles(1'000'000, 1e9), "1,000 cycles");
  EXPECT_EQ(FormatCycles(1'000, 1e9), "1 cycle");
  EXPECT_EQ(FormatCycles(1'234'567'000'000, 1e9), "1,234,567,000 cycles");
}

// A table's durations share the unit of its largest.
TEST(FormatPs, OneUnitForAColumn) {
  const TimeUnit unit = TimeUnitFor(1'078'134'942'000);
  EXPECT_STREQ(unit.name, "s");
  EXPECT_EQ(FormatPsIn(1'078'134'942'000, unit), "1.078 s");
  EXPECT_EQ(FormatPsIn(42'000'000, unit), "0.000 s");
  const TimeUnit ms = TimeUnitFor(250'000'000'000);
  EXPECT_EQ(FormatPsIn(42'000'000, ms), "0.042 ms");
  EXPECT_EQ(FormatPsIn(250'000'000'000, ms), "250.000 ms");
  EXPECT_STREQ(TimeUnitFor(0).name, "ps");
  EXPECT_EQ(FormatPsIn(850, TimeUnitFor(999)), "850 ps");
}

}  // namespace
}  // namespace systolic::analysis
