// Shardings to and from XLA's OpSharding, in every form the IR has.
#include "core/hlo/hlo_proto_sharding.h"

#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

HloSharding Parse(absl::string_view text) {
  absl::StatusOr<HloSharding> sharding = ParseSharding(text);
  EXPECT_TRUE(sharding.ok()) << text << ": " << sharding.status();
  return sharding.ok() ? *sharding : HloSharding();
}

TEST(HloProtoSharding, EveryFormRoundTrips) {
  for (absl::string_view text : {
           "{replicated}",
           "{manual}",
           "{unknown}",
           "{maximal device=3}",
           "{devices=[2,2]0,2,1,3}",
           "{devices=[4,2]<=[2,4]T(1,0)}",
           "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}",
           "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}",
           "{{replicated}, {maximal device=0}, {devices=[2]0,1}}",
           "{devices=[2]0,1 shard_as 4}",
           "{replicated shard_like 2}",
       }) {
    const HloSharding sharding = Parse(text);
    absl::StatusOr<HloSharding> back = ShardingFromProto(ShardingToProto(sharding));
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(back->ToString(), sharding.ToString()) << text;
    EXPECT_EQ(*back, sharding) << text;
  }
}

TEST(HloProtoSharding, FieldsAreXlas) {
  hlo_proto::OpSharding maximal = ShardingToProto(Parse("{maximal device=3}"));
  EXPECT_EQ(maximal.type(), hlo_proto::OpSharding::MAXIMAL);
  ASSERT_EQ(maximal.tile_assignment_devices_size(), 1);
  EXPECT_EQ(maximal.tile_assignment_devices(0), 3);

  hlo_proto::OpSharding iota = ShardingToProto(Parse("{devices=[4,2]<=[2,4]T(1,0)}"));
  EXPECT_EQ(iota.type(), hlo_proto::OpSharding::OTHER);
  EXPECT_EQ(iota.tile_assignment_devices_size(), 0);
  ASSERT_EQ(iota.iota_reshape_dims_size(), 2);
  EXPECT_EQ(iota.iota_reshape_dims(1), 4);
  ASSERT_EQ(iota.iota_transpose_perm_size(), 2);
  EXPECT_EQ(iota.iota_transpose_perm(0), 1);

  hlo_proto::OpSharding replicate_last =
      ShardingToProto(Parse("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"));
  EXPECT_TRUE(replicate_last.replicate_on_last_tile_dim());
  EXPECT_EQ(replicate_last.last_tile_dims_size(), 0);

  hlo_proto::OpSharding subgroups =
      ShardingToProto(Parse("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}"));
  ASSERT_EQ(subgroups.last_tile_dims_size(), 2);
  EXPECT_EQ(subgroups.last_tile_dims(0), hlo_proto::OpSharding::MANUAL);
  EXPECT_EQ(subgroups.last_tile_dims(1), hlo_proto::OpSharding::REPLICATED);

  hlo_proto::OpSharding tuple = ShardingToProto(Parse("{{replicated}, {manual}}"));
  EXPECT_EQ(tuple.type(), hlo_proto::OpSharding::TUPLE);
  ASSERT_EQ(tuple.tuple_shardings_size(), 2);
  EXPECT_EQ(tuple.tuple_shardings(1).type(), hlo_proto::OpSharding::MANUAL);
}

TEST(HloProtoSharding, DevicesThatDoNotFillTheTilesAreAnError) {
  hlo_proto::OpSharding proto;
  proto.set_type(hlo_proto::OpSharding::OTHER);
  proto.add_tile_assignment_dimensions(2);
  proto.add_tile_assignment_dimensions(2);
  proto.add_tile_assignment_devices(0);
  absl::StatusOr<HloSharding> sharding = ShardingFromProto(proto);
  ASSERT_FALSE(sharding.ok());
  EXPECT_NE(sharding.status().message().find("1 devices for a tile assignment of 4"),
            std::string::npos)
      << sharding.status();
}

}  // namespace
}  // namespace systolic
