#include "core/hlo/hlo_sharding.h"

#include "core/hlo/collective_device_list.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/window.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

TEST(TileAssignment, IotaWithTranspose) {
  auto t = TileAssignment::Iota({4, 2}, {2, 4}, {1, 0});
  ASSERT_TRUE(t.ok());
  // iota(8).reshape(2,4).transpose(1,0).reshape(4,2)
  EXPECT_EQ(t->devices(), (std::vector<int64_t>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(t->ToString(), "[4,2]<=[2,4]T(1,0)");
  EXPECT_EQ((*t)({1, 1}), 5);
  EXPECT_FALSE(TileAssignment::Iota({4, 2}, {3, 3}, {}).ok());
  EXPECT_FALSE(TileAssignment::Iota({4, 2}, {2, 4}, {0, 0}).ok());
}

TEST(HloSharding, PrintsEveryForm) {
  EXPECT_EQ(HloSharding::Replicate().ToString(), "{replicated}");
  EXPECT_EQ(HloSharding::AssignDevice(3).ToString(), "{maximal device=3}");
  EXPECT_EQ(HloSharding::Manual().ToString(), "{manual}");
  auto tiled = HloSharding::Tile(TileAssignment({2, 1, 2}, {0, 1, 2, 3}),
                                 {HloSharding::SubgroupType::kReplicated});
  EXPECT_EQ(tiled.ToString(), "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}");
  EXPECT_TRUE(tiled.ReplicateOnLastTileDim());
  EXPECT_EQ(tiled.TiledDataRank(), 2);
  auto manual_sub = HloSharding::Tile(*TileAssignment::Iota({2, 2, 2}, {8}, {}),
                                      {HloSharding::SubgroupType::kManual,
                                       HloSharding::SubgroupType::kReplicated});
  EXPECT_EQ(manual_sub.ToString(), "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}");
  auto tuple = HloSharding::Tuple({HloSharding::Replicate(), HloSharding::AssignDevice(0)});
  EXPECT_EQ(tuple.ToString(), "{{replicated}, {maximal device=0}}");
  HloSharding grouped = HloSharding::Replicate();
  grouped.SetShardGroup(1, true);
  EXPECT_EQ(grouped.ToString(), "{replicated shard_as 1}");
}

TEST(CollectiveDeviceList, IotaGroups) {
  CollectiveDeviceList groups(*TileAssignment::Iota({2, 4}, {4, 2}, {1, 0}));
  EXPECT_EQ(groups.replica_groups(),
            (std::vector<std::vector<int64_t>>{{0, 2, 4, 6}, {1, 3, 5, 7}}));
  EXPECT_EQ(groups.ToString(), "[2,4]<=[4,2]T(1,0)");
  EXPECT_EQ(CollectiveDeviceList(std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}).ToString(), "{{0,1},{2,3}}");
}

TEST(ConvolutionDimensionNumbers, DimLabelsRoundTrip) {
  for (const char* labels : {"b01f_01io->b01f", "bf01_oi01->bf01", "f01b_i01o->01bf",
                             "b0f_0io->b0f", "bf_io->bf"}) {
    auto d = ConvolutionDimensionNumbers::FromDimLabels(labels);
    ASSERT_TRUE(d.ok()) << labels << ": " << d.status();
    EXPECT_EQ(d->ToDimLabels(), labels);
  }
  EXPECT_FALSE(ConvolutionDimensionNumbers::FromDimLabels("b01f_01io").ok());
  EXPECT_FALSE(ConvolutionDimensionNumbers::FromDimLabels("b01x_01io->b01f").ok());
  EXPECT_FALSE(ConvolutionDimensionNumbers::FromDimLabels("b02f_01io->b01f").ok());
}

TEST(Window, PrintsNonDefaultFieldsAndOutputSizes) {
  Window w;
  w.dimensions = {{3, 2, 1, 1, 1, 1, false}, {3, 1, 0, 2, 2, 1, true}};
  EXPECT_EQ(w.ToString(), "size=3x3 stride=2x1 pad=1_1x0_2 rhs_dilate=1x2 rhs_reversal=0x1");
  EXPECT_EQ(WindowedOutputSize(7, w.dimensions[0]), 4);   // (7+2-3)/2+1
  EXPECT_EQ(WindowedOutputSize(7, w.dimensions[1]), 5);   // 9 - 5 + 1
}

}  // namespace
}  // namespace systolic
