// ICI topologies, routing, the transfer simulator and ring collectives.
#include <cmath>

#include "core/device/chip_spec_loader.h"
#include "core/device/ici_collectives.h"
#include "core/device/ici_topology.h"
#include "core/device/ici_transfer_simulator.h"
#include "core/device/slice.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

ChipSpec Spec(absl::string_view preset) {
  auto spec = LoadChipSpec(preset);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : ChipSpec();
}

IciTopology Topology(absl::string_view preset, std::vector<int64_t> bounds) {
  auto t = IciTopology::Create(Spec(preset), std::move(bounds));
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

TEST(IciTopology, TorusLinksWrapOnlyOnAxesLongerThanTwo) {
  EXPECT_EQ(Topology("v5e", {4, 4}).ShapeString(), "4x4");
  IciTopology t = Topology("v4", {4, 2, 1});
  EXPECT_EQ(t.chip_count(), 8);
  EXPECT_TRUE(t.wraps(0));
  EXPECT_FALSE(t.wraps(1));
  EXPECT_EQ(t.ShapeString(), "4x2x1");
  // x: 4 chips in a ring, both ways, on both rows = 16 links; y: one pair
  // per column, both ways = 8 links.
  EXPECT_EQ(t.links().size(), 24u);
  const int wrap = t.LinkFrom(t.ChipAt({3, 0, 0}), 0, +1);
  ASSERT_GE(wrap, 0);
  EXPECT_EQ(t.links()[wrap].target_chip, t.ChipAt({0, 0, 0}));
  EXPECT_EQ(t.LinkFrom(t.ChipAt({0, 1, 0}), 1, +1), -1);  // mesh edge
  EXPECT_DOUBLE_EQ(t.links()[0].bytes_per_second, 45e9);
  EXPECT_DOUBLE_EQ(t.links()[0].hop_latency_seconds, 1e-6);
  EXPECT_EQ(t.LinkName(wrap), "chip 3 +x");
}

TEST(IciTopology, DimensionOrderRoutingTakesTheShorterWayRound) {
  IciTopology t = Topology("v4", {8, 4, 2});
  const int64_t from = t.ChipAt({1, 0, 0});
  const int64_t to = t.ChipAt({7, 3, 1});
  std::vector<int> route = t.Route(from, to);
  // x: 1 -> 7 is 2 hops backwards round the ring; y: 0 -> 3 is 1 hop
  // backwards; z: 1 hop (no wrap on 2 chips).
  ASSERT_EQ(route.size(), 4u);
  EXPECT_EQ(t.links()[route[0]].axis, 0);
  EXPECT_EQ(t.links()[route[0]].direction, -1);
  EXPECT_EQ(t.links()[route[2]].axis, 1);
  EXPECT_EQ(t.links()[route[3]].axis, 2);
  EXPECT_EQ(t.links()[route.back()].target_chip, to);
  for (size_t i = 1; i < route.size(); ++i) {
    EXPECT_EQ(t.links()[route[i]].source_chip, t.links()[route[i - 1]].target_chip);
  }
  EXPECT_TRUE(t.Route(from, from).empty());
}

TEST(IciTopology, ImpossibleShapesAreClearErrors) {
  auto three_axes = IciTopology::Create(Spec("v5e"), {2, 2, 2});
  ASSERT_FALSE(three_axes.ok());
  EXPECT_THAT(three_axes.status().message(), HasSubstr("connect along 2 axes; 2x2x2 needs 3"));
  auto empty = IciTopology::Create(Spec("v4"), {4, 0});
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.status().message(), HasSubstr("axis y has 0 chips"));
  EXPECT_FALSE(IciTopology::Create(Spec("v4"), {}).ok());
  EXPECT_FALSE(IciTopology::Create(Spec("v4"), {1 << 12, 1 << 12}).ok());
}

TEST(IciTransferSimulator, ContendingTransfersShareALink) {
  IciTopology t = Topology("v4", {4});
  const double B = 45e9, alpha = 1e-6;
  const int64_t bytes = 45'000'000;  // 1 ms alone
  auto alone = SimulateIciTransfers(t, {{"a", 0, 1, bytes, {}}});
  ASSERT_TRUE(alone.ok());
  EXPECT_NEAR(alone->seconds, alpha + bytes / B, 1e-12);
  // Both use link 0 -> 1 (b also 1 -> 2). a streams alone until b's two
  // hops of latency have passed, then each gets half the link; b finishes
  // its last alpha*B bytes alone.
  auto shared = SimulateIciTransfers(t, {{"a", 0, 1, bytes, {}}, {"b", 0, 2, bytes, {}}});
  ASSERT_TRUE(shared.ok());
  EXPECT_NEAR(shared->transfers[0].end_seconds, 2 * bytes / B, 1e-9);
  EXPECT_NEAR(shared->seconds, 2 * bytes / B + alpha, 1e-9);
  // Opposite directions are separate links: no sharing.
  auto opposite = SimulateIciTransfers(t, {{"a", 0, 1, bytes, {}}, {"b", 1, 0, bytes, {}}});
  ASSERT_TRUE(opposite.ok());
  EXPECT_NEAR(opposite->seconds, alpha + bytes / B, 1e-12);
  EXPECT_EQ(opposite->link_bytes[t.LinkFrom(0, 0, +1)], bytes);
}

TEST(IciTransferSimulator, DependenciesOrderTransfers) {
  IciTopology t = Topology("v4", {4});
  auto sim = SimulateIciTransfers(t, {{"a", 0, 1, 45'000, {}}, {"b", 1, 2, 45'000, {0}}});
  ASSERT_TRUE(sim.ok());
  EXPECT_DOUBLE_EQ(sim->transfers[1].start_seconds, sim->transfers[0].end_seconds);
  auto bad = SimulateIciTransfers(t, {{"a", 0, 9, 1, {}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("outside the 4-chip topology"));
  auto cycle = SimulateIciTransfers(t, {{"a", 0, 1, 1, {1}}, {"b", 1, 0, 1, {0}}});
  ASSERT_FALSE(cycle.ok());
  EXPECT_THAT(cycle.status().message(), HasSubstr("not an earlier one"));
}

// The alpha-beta estimate of a ring all-reduce: 2(n-1) latencies and
// 2(n-1)/n of the buffer over one link's bandwidth.
TEST(IciCollectives, UncontendedRingAllReduceMatchesTheAlphaBetaEstimate) {
  const ChipSpec spec = Spec("v4");
  const double alpha = spec.ici().hop_latency_ns() * 1e-9;
  const double B = spec.ici().bandwidth_gb_per_second_per_link() * 1e9;
  for (int64_t n = 2; n <= 16; ++n) {
    IciTopology ring = Topology("v4", {n});
    for (int64_t S = 1024; S <= (int64_t{1} << 30); S *= 32) {
      auto one_way = SimulateIciTransfers(ring, RingAllReduce(NeighbourRing(ring), S));
      ASSERT_TRUE(one_way.ok()) << one_way.status();
      const double estimate = 2 * (n - 1) * alpha + 2.0 * (n - 1) / n * double(S) / B;
      EXPECT_NEAR(one_way->seconds, estimate, 0.05 * estimate) << "n=" << n << " S=" << S;
      // Both ways round, each direction carries half the buffer.
      auto both_ways = TimeCollective(ring, IciCollective::kAllReduce, S);
      ASSERT_TRUE(both_ways.ok()) << both_ways.status();
      const double halved = 2 * (n - 1) * alpha + (n - 1.0) / n * double(S) / B;
      if (n > 2) {
        EXPECT_NEAR(both_ways->seconds(), halved, 0.05 * halved) << "n=" << n << " S=" << S;
      }
    }
  }
}

TEST(IciCollectives, RingsVisitNeighboursAndPhasesChain) {
  IciTopology t = Topology("v4", {4, 4, 2});
  std::vector<int64_t> ring = NeighbourRing(t);
  ASSERT_EQ(ring.size(), 32u);
  for (size_t i = 1; i < ring.size(); ++i) EXPECT_EQ(t.Route(ring[i - 1], ring[i]).size(), 1u);
  std::vector<IciTransfer> ar = RingAllReduce(ring, 32 * 1024);
  EXPECT_EQ(ar.size(), 2u * 31u * 32u);
  // The first all-gather step waits for the last reduce-scatter step.
  const IciTransfer& first_gather = ar[31 * 32];
  ASSERT_EQ(first_gather.after.size(), 1u);
  EXPECT_EQ(ar[first_gather.after[0]].target_chip, first_gather.source_chip);
  EXPECT_EQ(ar[0].bytes, 1024);
}

TEST(IciCollectives, ATorusWorksAxisByAxisOnBidirectionalRings) {
  IciTopology t = Topology("v4", {4, 4, 4});
  const int64_t S = int64_t{1} << 30;
  auto single = SimulateIciTransfers(t, RingAllReduce(NeighbourRing(t), S));
  auto torus = TimeCollective(t, IciCollective::kAllReduce, S);
  ASSERT_TRUE(single.ok() && torus.ok());
  // Six links per chip instead of one: at least twice as fast.
  EXPECT_LT(torus->seconds(), single->seconds / 2);
  // Bandwidth term: x moves 3/4 of S, y 3/4 of S/4, z 3/4 of S/16, each
  // split over two directions, and the same again to gather.
  const double B = 45e9;
  const double bandwidth_term = 2 * 0.75 * (1 + 0.25 + 0.0625) * double(S) / 2 / B;
  EXPECT_NEAR(torus->seconds(), bandwidth_term, 0.05 * bandwidth_term);
  // Each phase waits for the one before on the same chip.
  std::vector<IciTransfer> transfers = TorusCollective(t, IciCollective::kAllReduce, S);
  EXPECT_EQ(transfers.size(), size_t(6 * 3 * 2 * 64));
  EXPECT_TRUE(transfers.front().after.empty());
  EXPECT_FALSE(transfers.back().after.empty());
}

TEST(IciCollectives, EveryCollectiveTimesAndAllToAllContends) {
  IciTopology t = Topology("v5e", {4, 4});
  for (IciCollective c : {IciCollective::kAllReduce, IciCollective::kAllGather,
                          IciCollective::kReduceScatter, IciCollective::kAllToAll,
                          IciCollective::kCollectivePermute}) {
    auto timing = TimeCollective(t, c, 1 << 24);
    ASSERT_TRUE(timing.ok()) << IciCollectiveName(c);
    EXPECT_GT(timing->seconds(), 0) << IciCollectiveName(c);
    EXPECT_EQ(ParseIciCollective(IciCollectiveName(c)).value(), c);
  }
  auto reduce_scatter = TimeCollective(t, IciCollective::kReduceScatter, 1 << 24);
  auto all_reduce = TimeCollective(t, IciCollective::kAllReduce, 1 << 24);
  EXPECT_NEAR(all_reduce->seconds(), 2 * reduce_scatter->seconds(), 0.01 * all_reduce->seconds());
  // All-to-all routes many chunks over shared links: slower than its
  // per-link share alone.
  auto a2a = TimeCollective(t, IciCollective::kAllToAll, 1 << 24);
  const double one_chunk = double(1 << 24) / 16 / 50e9;
  EXPECT_GT(a2a->seconds(), 2 * one_chunk);
  EXPECT_FALSE(ParseIciCollective("all-sum").ok());
}

TEST(TopologyTextTest, Parses) {
  auto t = ParseTopologyText("v4:2x2x2");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->chip, "v4");
  EXPECT_EQ(t->bounds, (std::array<int64_t, 3>{2, 2, 2}));
  auto plain = ParseTopologyText("4x2");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->chip, "");
  EXPECT_EQ(plain->bounds, (std::array<int64_t, 3>{4, 2, 1}));
  EXPECT_THAT(ParseTopologyText("v4:2x0").status().message(),
              HasSubstr("'0' is not a positive chip count"));
  EXPECT_FALSE(ParseTopologyText("v4:1x1x1x1").ok());
}

TEST(SliceTest, LoadsThePresetAndShape) {
  auto slice = LoadSlice("v5e:4x2");
  ASSERT_TRUE(slice.ok()) << slice.status();
  EXPECT_EQ(slice->Name(), "v5e:4x2");
  EXPECT_EQ(slice->topology.chip_count(), 8);
  auto plain = LoadSlice("2x2x2", "v4");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->Name(), "v4:2x2x2");
  EXPECT_THAT(LoadSlice("v99:2x2").status().message(), HasSubstr("v99"));
  // v5e chips form a 2D torus at most.
  EXPECT_FALSE(LoadSlice("v5e:2x2x2").ok());
}

TEST(SliceTest, ForDevicesIsTheSquarestTorus) {
  auto spec = LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto eight = SliceForDevices(*spec, 8);
  ASSERT_TRUE(eight.ok()) << eight.status();
  EXPECT_EQ(eight->Name(), "v4:4x2");
  auto seven = SliceForDevices(*spec, 7);
  ASSERT_TRUE(seven.ok()) << seven.status();
  EXPECT_EQ(seven->Name(), "v4:7");
}

}  // namespace
}  // namespace systolic::device
