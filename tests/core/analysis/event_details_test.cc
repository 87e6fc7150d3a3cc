// What the details pane shows for an event, and which events ran an
// instruction.
#include "core/analysis/event_details.h"

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/synthetic_profile.h"

namespace systolic::analysis {
namespace {

std::string Row(const EventDetails& details, const std::string& label) {
  for (const auto& [key, value] : details.rows) {
    if (key == label) return value;
  }
  return "<none>";
}

class EventDetailsTest : public ::testing::Test {
 protected:
  trace::Profile profile_ = trace::testing::MakeSampleProfile({.chips = 2, .events_per_lane = 20});
  const trace::Timeline& timeline_ = profile_.timeline;
  // Plane 0, lane 0 is "core 0 / MXU 0"; event 0 carries its own stats,
  // event 1 only its name's.
  trace::EventRef with_stats_{0, 0, 0};
  trace::EventRef plain_{0, 0, 1};
};

TEST_F(EventDetailsTest, RowsInDisplayOrder) {
  const EventDetails details = DescribeEvent(timeline_, with_stats_);
  EXPECT_EQ(details.name, "fusion.3");
  EXPECT_EQ(details.instruction, "op.0");  // its own hlo_op wins
  EXPECT_EQ(details.lane, "core 0 / MXU 0");
  EXPECT_EQ(details.start_ps, 11);
  EXPECT_EQ(details.duration_ps, 2000);
  EXPECT_EQ(details.rows[0].first, "Event");
  EXPECT_EQ(Row(details, "Lane"), "/device:TPU:0 · core 0 / MXU 0");
  EXPECT_EQ(Row(details, "Start"), "11 ps");
  // 2 ns at 1.05 GHz.
  EXPECT_EQ(Row(details, "Duration"), "2.000 ns (2 cycles)");
  EXPECT_EQ(Row(details, "Instruction"), "op.0");
  EXPECT_EQ(Row(details, "FLOPs"), "1.02 kFLOP · 512.00 GFLOP/s");
  EXPECT_EQ(Row(details, "Cycles"), "18446744073709551616");
  EXPECT_EQ(Row(details, "Utilisation"), "n/a");  // NaN in the sample
  EXPECT_EQ(Row(details, "hlo_op"), "<none>");     // shown as the instruction
  std::vector<std::string> labels;
  for (const auto& row : details.rows) labels.push_back(row.first);
  EXPECT_THAT(labels, ::testing::ElementsAre("Event", "Lane", "Start", "Duration", "Instruction",
                                             "Cycles", "FLOPs", "Bytes", "Utilisation"));
}

TEST_F(EventDetailsTest, TheInstructionOfAnEvent) {
  EXPECT_EQ(InstructionOfEvent(timeline_, plain_), "fusion.3");  // its name's hlo_op
  EXPECT_EQ(InstructionOfEvent(timeline_, {0, 2, 1}), "relu");    // no stat: the name
  EXPECT_EQ(InstructionOfEvent(timeline_, {0, 99, 0}), "");
  const EventDetails details = DescribeEvent(timeline_, {0, 3, 1});  // DMA, display name
  EXPECT_EQ(details.name, "HBM -> VMEM");
  EXPECT_EQ(Row(details, "Name"), "copy-start");
  EXPECT_DOUBLE_EQ(PlaneClockHz(timeline_.plane(0)), 1050e6);
  EXPECT_DOUBLE_EQ(PlaneClockHz(timeline_.plane(2)), 0);  // the host
}

TEST_F(EventDetailsTest, EventsOfAnInstruction) {
  const InstructionEventMatcher fusion(timeline_, {"fusion.3"});
  EXPECT_FALSE(fusion.empty());
  const int32_t matmul = timeline_.plane(0).FindEventName("fusion.3");
  EXPECT_TRUE(fusion.MatchesName(0, matmul));
  EXPECT_TRUE(fusion.MatchesName(1, timeline_.plane(1).FindEventName("fusion.3")));
  EXPECT_FALSE(fusion.MatchesName(0, timeline_.plane(0).FindEventName("relu")));
  EXPECT_TRUE(fusion.Matches(timeline_, plain_));
  EXPECT_FALSE(fusion.Matches(timeline_, with_stats_));  // ran op.0

  const InstructionEventMatcher op0(timeline_, {"op.0", "relu"});
  EXPECT_TRUE(op0.Matches(timeline_, with_stats_));
  EXPECT_FALSE(op0.Matches(timeline_, plain_));
  EXPECT_TRUE(op0.Matches(timeline_, {0, 2, 1}));

  int64_t matches = 0;
  for (int64_t i = 0; i < timeline_.plane(0).line(0).size(); ++i) {
    matches += fusion.Matches(timeline_, {0, 0, i});
  }
  EXPECT_EQ(matches, 16);  // every event but the four with their own hlo_op

  EXPECT_TRUE(InstructionEventMatcher(timeline_, {"nothing"}).empty());
  EXPECT_TRUE(InstructionEventMatcher().empty());
  EXPECT_FALSE(InstructionEventMatcher().Matches(timeline_, plain_));
}

}  // namespace
}  // namespace systolic::analysis
