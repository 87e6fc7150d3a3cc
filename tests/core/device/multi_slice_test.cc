// Slices joined by the data-centre network: "v5e:16x16*4" parses and loads,
// messages between slices leave and enter by the chips' DCN links, a
// collective across slices takes the DCN's ring time, one within each
// slice takes the single slice's time, and a chip without DCN figures says
// so.
#include <cmath>

#include "core/device/chip_spec_loader.h"
#include "core/device/collective_lowering.h"
#include "core/device/run_profile.h"
#include "core/device/slice_timing.h"
#include "core/device/slice.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

Slice Load(absl::string_view text) {
  auto slice = LoadSlice(text);
  EXPECT_TRUE(slice.ok()) << slice.status();
  return *std::move(slice);
}

// An all-reduce of `elements` f32 (64 MiB by default) over `groups` of
// `replicas` devices.
std::unique_ptr<HloModule> AllReduceOver(const std::string& groups, int replicas = 16,
                                         int64_t elements = 16777216) {
  const std::string shape = absl::StrCat("f32[", elements, "]");
  const std::string text = absl::StrCat(R"(
HloModule m, replica_count=)", replicas, R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = )", shape, R"( parameter(0)
  ROOT r = )", shape, R"( all-reduce(x), replica_groups=)", groups, R"(, to_apply=add
})");
  auto m = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

double SecondsOf(const HloModule& module, const Slice& slice) {
  auto timings = TimeModuleCollectives(module, slice.topology, SpmdDeviceCounts{16, 1});
  EXPECT_TRUE(timings.ok()) << timings.status();
  return timings.ok() && timings->size() == 1 ? (*timings)[0].seconds() : -1;
}

TEST(MultiSlice, TextNamesTheSlicesAndTheirChips) {
  auto parsed = ParseTopologyText("v5e:16x16*4");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->slices, 4);
  const Slice slice = Load("v5e:16x16*4");
  EXPECT_EQ(slice.Name(), "v5e:16x16*4");
  EXPECT_EQ(slice.topology.chip_count(), 1024);
  EXPECT_EQ(slice.topology.chips_per_slice(), 256);
  EXPECT_EQ(slice.topology.SliceOf(700), 2);
  EXPECT_FALSE(ParseTopologyText("v5e:16x16*0").ok());
  EXPECT_FALSE(ParseTopologyText("v5e:16x16*x").ok());
}

TEST(MultiSlice, MessagesBetweenSlicesCrossTheDataCentreNetwork) {
  const Slice slice = Load("v5e:4x4*2");
  const IciTopology& t = slice.topology;
  const std::vector<int> across = t.Route(1, 16 + 5);
  ASSERT_EQ(across.size(), 2u);
  EXPECT_EQ(t.LinkName(across[0]), "chip 1 dcn out");
  EXPECT_EQ(t.LinkName(across[1]), "chip 21 dcn in");
  EXPECT_DOUBLE_EQ(t.links()[size_t(across[0])].bytes_per_second, 3.125e9);
  // Within the second slice, ICI hops that stay in it.
  for (int link : t.Route(16, 16 + 5)) {
    EXPECT_EQ(t.SliceOf(t.links()[size_t(link)].source_chip), 1);
    EXPECT_EQ(t.SliceOf(t.links()[size_t(link)].target_chip), 1);
  }
}

TEST(MultiSlice, AnAllReduceAcrossSlicesTakesTheNetworksRingTime) {
  // Four slices of 2x2 chips.
  const Slice slice = Load("v5e:2x2*4");
  // Four groups, each the chips at one place in the four slices.
  const double seconds = SecondsOf(*AllReduceOver("{{0,4,8,12},{1,5,9,13},{2,6,10,14},{3,7,11,15}}"),
                                   slice);
  // Ring all-reduce: 2 (k - 1) / k of the buffer through each chip's DCN
  // link, plus the latency of 2 (k - 1) steps.
  const double bytes = 64.0 * (1 << 20);
  const double expected = 2.0 * 3 / 4 * bytes / 3.125e9 + 2 * 3 * 10e-6;
  EXPECT_NEAR(seconds, expected, 0.02 * expected);
}

TEST(MultiSlice, CollectivesWithinEachSliceTakeTheSingleSlicesTime) {
  const double one = SecondsOf(*AllReduceOver("{{0,1,2,3},{4,5,6,7},{8,9,10,11},{12,13,14,15}}"),
                               Load("v5e:2x2*4"));
  auto single = ParseAndReturnUnverifiedModule(R"(
HloModule m, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[16777216] parameter(0)
  ROOT r = f32[16777216] all-reduce(x), replica_groups={{0,1,2,3}}, to_apply=add
})");
  ASSERT_TRUE(single.ok());
  auto timings = TimeModuleCollectives(**single, Load("v5e:2x2").topology, SpmdDeviceCounts{4, 1});
  ASSERT_TRUE(timings.ok()) << timings.status();
  EXPECT_NEAR(one, (*timings)[0].seconds(), 1e-9);
  EXPECT_GT(one, 0);
  // Timed once, but every slice's links carry the traffic.
  const Slice four = Load("v5e:2x2*4");
  auto per_slice = TimeModuleCollectives(
      *AllReduceOver("{{0,1,2,3},{4,5,6,7},{8,9,10,11},{12,13,14,15}}"), four.topology,
      SpmdDeviceCounts{16, 1});
  ASSERT_TRUE(per_slice.ok());
  std::vector<int64_t> bytes_per_slice(4, 0);
  for (size_t link = 0; link < four.topology.links().size(); ++link) {
    bytes_per_slice[size_t(four.topology.SliceOf(four.topology.links()[link].source_chip))] +=
        (*per_slice)[0].simulation.link_bytes[link];
  }
  EXPECT_GT(bytes_per_slice[0], 0);
  for (int s = 1; s < 4; ++s) EXPECT_EQ(bytes_per_slice[size_t(s)], bytes_per_slice[0]) << s;
}

TEST(MultiSlice, TheProfileShowsNetworkTransfersOnLanesOfTheirOwn) {
  const Slice slice = Load("v5e:2x2*4");
  auto timed = CompileAndTimeOnSlice(
      AllReduceOver("{{0,4,8,12},{1,5,9,13},{2,6,10,14},{3,7,11,15}}"), slice,
      SpmdDeviceCounts{16, 1});
  ASSERT_TRUE(timed.ok()) << timed.status();
  const trace::Profile p =
      ProfileOfSliceRun("across slices", slice, timed->compilation, timed->timing);
  EXPECT_EQ(p.topology.shape, "2x2*4");
  // The slices lie side by side along a third axis.
  EXPECT_EQ(p.topology.dims, (std::vector<int32_t>{2, 2, 4}));
  EXPECT_EQ(p.topology.chips[13].coordinates, (std::vector<int32_t>{1, 0, 3}));
  const trace::TimelinePlane* chip0 = p.timeline.FindChipPlane(0);
  ASSERT_NE(chip0, nullptr);
  bool send = false, receive = false;
  for (int32_t l = 0; l < chip0->line_count(); ++l) {
    send = send || chip0->line(l).name() == "DCN send";
    receive = receive || chip0->line(l).name() == "DCN receive";
  }
  EXPECT_TRUE(send);
  EXPECT_TRUE(receive);
  EXPECT_FALSE(p.timeline.flows().empty());
}

// Past the planes a profile draws, every slice still shows its first
// chips, so a transfer between slices is drawn with both its ends.
TEST(MultiSlice, LargeSlicesEachShowTheirFirstChips) {
  const Slice slice = Load("v5e:8x8*2");
  std::string groups;
  for (int c = 0; c < 64; ++c) absl::StrAppend(&groups, c == 0 ? "{" : ",", "{", c, ",", c + 64, "}");
  groups += "}";
  auto timed = CompileAndTimeOnSlice(AllReduceOver(groups, 128, 65536), slice, SpmdDeviceCounts{128, 1});
  ASSERT_TRUE(timed.ok()) << timed.status();
  const trace::Profile p = ProfileOfSliceRun("two slices", slice, timed->compilation, timed->timing);
  EXPECT_EQ(p.timeline.plane_count(), 64);
  EXPECT_NE(p.timeline.FindChipPlane(31), nullptr);
  EXPECT_EQ(p.timeline.FindChipPlane(32), nullptr);
  EXPECT_NE(p.timeline.FindChipPlane(64), nullptr);  // slice 1's first chip
  ASSERT_FALSE(p.info.notes.empty());
  EXPECT_NE(p.info.notes.back().find("the first 32 chips of each of its 2 slices"), std::string::npos)
      << p.info.notes.back();
  // Chip 0 sends to chip 64 over the network, and the flow joins them.
  bool dcn = false;
  const trace::TimelinePlane* chip0 = p.timeline.FindChipPlane(0);
  for (int32_t l = 0; l < chip0->line_count(); ++l) dcn = dcn || chip0->line(l).name() == "DCN send";
  EXPECT_TRUE(dcn);
  const int32_t plane64 = p.timeline.FindChipPlane(64)->id();
  bool joined = false;
  for (const trace::Flow& flow : p.timeline.flows()) {
    joined = joined || (flow.source.plane == chip0->id() && flow.target.plane == plane64);
  }
  EXPECT_TRUE(joined);
}

TEST(MultiSlice, AChipWithoutNetworkFiguresFormsOneSliceOnly) {
  auto slice = LoadSlice("v4:2x2x2*2");
  ASSERT_FALSE(slice.ok());
  EXPECT_THAT(std::string(slice.status().message()), HasSubstr("data-centre network"));
}

}  // namespace
}  // namespace systolic::device
