// A module's collectives timed on a slice: groups, bytes, transfers.
#include "core/device/collective_lowering.h"

#include "core/device/chip_spec_loader.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

IciTopology Topology(absl::string_view preset, std::vector<int64_t> bounds) {
  auto spec = LoadChipSpec(preset);
  EXPECT_TRUE(spec.ok());
  auto t = IciTopology::Create(*spec, std::move(bounds));
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

std::unique_ptr<HloModule> Parse(absl::string_view text) {
  auto m = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : nullptr;
}

TEST(CollectiveLowering, GroupsRunTheirRingsTogether) {
  auto module = Parse(R"(
HloModule grads, replica_count=8
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[1024] parameter(0)
  all = f32[1024] all-reduce(x), replica_groups={}, to_apply=add
  halves = f32[1024] all-reduce(x), replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=add
  ROOT out = (f32[1024], f32[1024]) tuple(all, halves)
}
)");
  ASSERT_NE(module, nullptr);
  const IciTopology slice = Topology("v4", {2, 2, 2});
  auto timings = TimeModuleCollectives(*module, slice);
  ASSERT_TRUE(timings.ok()) << timings.status();
  ASSERT_EQ(timings->size(), 2u);
  const CollectiveTiming& all = (*timings)[0].instruction == "all" ? (*timings)[0] : (*timings)[1];
  const CollectiveTiming& halves = &all == &(*timings)[0] ? (*timings)[1] : (*timings)[0];
  EXPECT_EQ(all.groups, 1);
  EXPECT_EQ(all.bytes, 4096);
  // Every chip in one group: axis by axis over the torus.
  EXPECT_EQ(all.transfers.size(),
            TorusCollective(slice, IciCollective::kAllReduce, 4096).size());
  EXPECT_EQ(halves.groups, 2);
  // Each group's ring both ways round: 2 groups x 2 directions x 2 phases x
  // 3 steps x 4 chips.
  EXPECT_EQ(halves.transfers.size(), 2u * 2 * (2 * 3 * 4));
  EXPECT_GT(all.seconds(), 0);
  EXPECT_EQ(all.simulation.transfers.size(), all.transfers.size());
  // Two rings of four chips take 2 * 3 steps; the whole slice one step per
  // axis and phase.
  EXPECT_LT(all.seconds(), halves.seconds());
}

TEST(CollectiveLowering, NeighbourPermuteTakesOneHopAndItsBytes) {
  auto module = Parse(R"(
HloModule shift, num_partitions=8
ENTRY e {
  x = f32[262144] parameter(0)
  ROOT y = f32[262144] collective-permute(x), channel_id=1,
    source_target_pairs={{0,1},{1,2},{2,3},{3,4},{4,5},{5,6},{6,7},{7,0}}
}
)");
  ASSERT_NE(module, nullptr);
  auto timings = TimeModuleCollectives(*module, Topology("v4", {8}));
  ASSERT_TRUE(timings.ok()) << timings.status();
  ASSERT_EQ(timings->size(), 1u);
  const double bytes = 262144.0 * 4;
  const double expected = 1e-6 + bytes / 45e9;
  EXPECT_NEAR((*timings)[0].seconds(), expected, 0.01 * expected);
  EXPECT_EQ((*timings)[0].transfers.size(), 8u);
}

TEST(CollectiveLowering, MoreDevicesThanChipsIsAClearError) {
  auto module = Parse(R"(
HloModule big, replica_count=16
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(x), replica_groups={}, to_apply=add
}
)");
  ASSERT_NE(module, nullptr);
  auto timings = TimeModuleCollectives(*module, Topology("v4", {2, 2, 2}));
  ASSERT_FALSE(timings.ok());
  EXPECT_THAT(timings.status().message(),
              HasSubstr("runs on 16 devices (16 replicas x 1 partitions); the 2x2x2 slice has 8"));
}

}  // namespace
}  // namespace systolic::device
