// Lanes grouped chip -> core -> unit, in a fixed order.
#include "core/analysis/lane_tree.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/synthetic_profile.h"

namespace systolic::analysis {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Labels(const LaneTree& tree, const std::vector<int32_t>& nodes) {
  std::vector<std::string> labels;
  for (int32_t n : nodes) labels.push_back(tree.node(n).label);
  return labels;
}

TEST(LaneTree, ChipsThenCoresThenUnits) {
  const trace::Profile profile = trace::testing::MakeSampleProfile({.chips = 2, .events_per_lane = 10});
  const LaneTree tree = LaneTree::Build(profile.timeline);
  ASSERT_EQ(tree.roots().size(), 3u);  // two chips, then the host
  EXPECT_THAT(Labels(tree, tree.roots()), ElementsAre("TPU 0", "TPU 1", "host CPU"));
  const LaneNode& chip = tree.node(tree.roots()[0]);
  EXPECT_EQ(chip.kind, LaneNodeKind::kPlane);
  // Overview lanes first, then the core, then the chip's own links.
  EXPECT_THAT(Labels(tree, chip.children), ElementsAre("steps", "core 0", "ICI +x"));
  const LaneNode& core = tree.node(chip.children[1]);
  EXPECT_EQ(core.kind, LaneNodeKind::kCore);
  EXPECT_EQ(core.core, 0);
  EXPECT_EQ(core.depth, 1);
  EXPECT_THAT(Labels(tree, core.children), ElementsAre("MXU 0", "MXU 1", "vector", "DMA 0"));
  const LaneNode& mxu1 = tree.node(core.children[1]);
  EXPECT_EQ(mxu1.lane_kind, trace::LaneKind::kMxu);
  EXPECT_EQ(mxu1.depth, 2);
  EXPECT_EQ(profile.timeline.plane(mxu1.plane).line(mxu1.line).name(), "core 0 / MXU 1");
  EXPECT_EQ(tree.FindLane(mxu1.plane, mxu1.line), core.children[1]);
  EXPECT_EQ(tree.FindLane(99, 0), -1);
  EXPECT_EQ(core.event_count, 40);
  EXPECT_EQ(chip.event_count, 10 * 5 + 3);
}

TEST(LaneTree, CollapsedGroupsHideTheirRows) {
  const trace::Profile profile = trace::testing::MakeSampleProfile({.chips = 2, .events_per_lane = 10});
  const LaneTree tree = LaneTree::Build(profile.timeline);
  const std::vector<int32_t> all = tree.VisibleRows({});
  EXPECT_EQ(all.size(), size_t(tree.size()));
  std::vector<bool> collapsed(tree.size(), false);
  collapsed[tree.roots()[0]] = true;                          // chip 0
  collapsed[tree.node(tree.roots()[1]).children[1]] = true;  // chip 1's core 0
  EXPECT_THAT(Labels(tree, tree.VisibleRows(collapsed)),
              ElementsAre("TPU 0", "TPU 1", "steps", "core 0", "ICI +x", "host CPU", "python3"));
}

TEST(LaneTree, PlaneLabels) {
  trace::Timeline timeline;
  EXPECT_EQ(PlaneLabel(timeline.AddPlane("/device:TPU:12", trace::PlaneKind::kDevice, 12)), "TPU 12");
  EXPECT_EQ(PlaneLabel(timeline.AddPlane("/host:CPU", trace::PlaneKind::kHost, -1)), "host CPU");
  EXPECT_EQ(PlaneLabel(timeline.AddPlane("custom", trace::PlaneKind::kDevice, 0)), "custom");
  EXPECT_LT(LaneKindRank(trace::LaneKind::kSteps), LaneKindRank(trace::LaneKind::kMxu));
  EXPECT_LT(LaneKindRank(trace::LaneKind::kMxu), LaneKindRank(trace::LaneKind::kDma));
}

}  // namespace
}  // namespace systolic::analysis
