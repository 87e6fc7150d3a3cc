#include "core/hlo/sharding_tiles.h"

#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

DeviceTile TileOf(const std::string& sharding, const Shape& shape, int64_t device) {
  absl::StatusOr<HloSharding> parsed = ParseSharding(sharding);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<std::optional<DeviceTile>> tile = TileForDevice(*parsed, shape, device);
  EXPECT_TRUE(tile.ok()) << tile.status();
  EXPECT_TRUE(tile->has_value());
  return tile->value_or(DeviceTile{});
}

TEST(TileForDevice, ColumnsSplitOverEightDevices) {
  const Shape w1(F32, {256, 1024});
  for (int64_t d = 0; d < 8; ++d) {
    DeviceTile tile = TileOf("{devices=[1,8]<=[8]}", w1, d);
    EXPECT_EQ(tile.tile_index, d);
    EXPECT_EQ(tile.offsets, (std::vector<int64_t>{0, 128 * d}));
    EXPECT_EQ(tile.dimensions, (std::vector<int64_t>{256, 128}));
    EXPECT_EQ(tile.bytes, 256 * 128 * 4);
  }
}

TEST(TileForDevice, TransposedIotaPlacesDevicesColumnMajor) {
  // [2,2]<=[2,2]T(1,0): devices 0,2 / 1,3.
  const Shape a(BF16, {8, 6});
  DeviceTile tile = TileOf("{devices=[2,2]<=[2,2]T(1,0)}", a, 2);
  EXPECT_EQ(tile.tile_coordinates, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(tile.tile_index, 1);
  EXPECT_EQ(tile.offsets, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(tile.bytes, 4 * 3 * 2);
}

TEST(TileForDevice, ReplicatedSubgroupsShareTiles) {
  const Shape a(F32, {4, 4});
  const std::string sharding = "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}";
  EXPECT_EQ(TileOf(sharding, a, 0).tile_index, 0);
  EXPECT_EQ(TileOf(sharding, a, 1).tile_index, 0);
  EXPECT_EQ(TileOf(sharding, a, 2).tile_index, 1);
  EXPECT_EQ(TileOf(sharding, a, 3).offsets, (std::vector<int64_t>{2, 0}));
}

TEST(TileForDevice, UnevenSplitsArePadded) {
  DeviceTile tile = TileOf("{devices=[4]0,1,2,3}", Shape(F32, {10}), 3);
  EXPECT_EQ(tile.dimensions, (std::vector<int64_t>{3}));
  EXPECT_EQ(tile.offsets, (std::vector<int64_t>{9}));
}

TEST(TileForDevice, ReplicatedAndMaximal) {
  const Shape a(F32, {2, 3});
  DeviceTile whole = TileOf("{replicated}", a, 5);
  EXPECT_EQ(whole.dimensions, a.dimensions());
  EXPECT_EQ(whole.bytes, 24);
  auto maximal = TileForDevice(HloSharding::AssignDevice(1), a, 0);
  ASSERT_TRUE(maximal.ok());
  EXPECT_FALSE(maximal->has_value());
  EXPECT_FALSE(TileForDevice(*ParseSharding("{devices=[2]0,1}"), a, 0).ok());
  EXPECT_EQ(TileGridOf(*ParseSharding("{devices=[1,8]<=[8]}"), 2), (std::vector<int64_t>{1, 8}));
}

}  // namespace
}  // namespace systolic
