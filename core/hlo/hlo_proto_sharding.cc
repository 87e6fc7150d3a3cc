#include "core/hlo/hlo_proto_sharding.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_proto_metadata.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using hlo_proto::OpSharding;

void AppendLeaves(const HloSharding& sharding, OpSharding* tuple) {
  for (const HloSharding& element : sharding.tuple_elements()) {
    if (element.IsTuple()) {
      AppendLeaves(element, tuple);
    } else {
      *tuple->add_tuple_shardings() = ShardingToProto(element);
    }
  }
}

int64_t Product(const std::vector<int64_t>& values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

absl::StatusOr<TileAssignment> TilesFromProto(const OpSharding& proto) {
  std::vector<int64_t> dimensions(proto.tile_assignment_dimensions().begin(),
                                  proto.tile_assignment_dimensions().end());
  if (proto.iota_reshape_dims_size() > 0) {
    return TileAssignment::Iota(
        std::move(dimensions),
        std::vector<int64_t>(proto.iota_reshape_dims().begin(), proto.iota_reshape_dims().end()),
        std::vector<int64_t>(proto.iota_transpose_perm().begin(), proto.iota_transpose_perm().end()));
  }
  std::vector<int64_t> devices(proto.tile_assignment_devices().begin(),
                               proto.tile_assignment_devices().end());
  if (int64_t(devices.size()) != Product(dimensions)) {
    return absl::InvalidArgumentError(absl::StrCat("a tiled sharding has ", devices.size(),
                                                   " devices for a tile assignment of ",
                                                   Product(dimensions)));
  }
  return TileAssignment(std::move(dimensions), std::move(devices));
}

}  // namespace

OpSharding ShardingToProto(const HloSharding& sharding) {
  OpSharding proto;
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated: proto.set_type(OpSharding::REPLICATED); break;
    case HloSharding::Kind::kManual: proto.set_type(OpSharding::MANUAL); break;
    case HloSharding::Kind::kUnknown: proto.set_type(OpSharding::UNKNOWN); break;
    case HloSharding::Kind::kMaximal:
      proto.set_type(OpSharding::MAXIMAL);
      // XLA says which device with a one-element tile assignment.
      proto.add_tile_assignment_dimensions(1);
      proto.add_tile_assignment_devices(sharding.device());
      break;
    case HloSharding::Kind::kTuple:
      proto.set_type(OpSharding::TUPLE);
      AppendLeaves(sharding, &proto);
      return proto;  // metadata and groups live on the leaves
    case HloSharding::Kind::kTiled: {
      proto.set_type(OpSharding::OTHER);
      const TileAssignment& tiles = sharding.tile_assignment();
      for (int64_t d : tiles.dimensions()) proto.add_tile_assignment_dimensions(d);
      if (tiles.is_iota()) {
        for (int64_t d : tiles.iota_reshape_dimensions()) proto.add_iota_reshape_dims(d);
        for (int64_t p : tiles.iota_transpose_perm()) proto.add_iota_transpose_perm(int32_t(p));
      } else {
        for (int64_t d : tiles.devices()) proto.add_tile_assignment_devices(d);
      }
      if (sharding.ReplicateOnLastTileDim()) {
        proto.set_replicate_on_last_tile_dim(true);
      } else {
        for (HloSharding::SubgroupType type : sharding.subgroup_types()) {
          proto.add_last_tile_dims(type == HloSharding::SubgroupType::kManual
                                       ? OpSharding::MANUAL
                                       : OpSharding::REPLICATED);
        }
      }
      break;
    }
  }
  for (const OpMetadata& metadata : sharding.metadata()) {
    *proto.add_metadata() = OpMetadataToProto(metadata);
  }
  if (sharding.shard_group_id()) {
    proto.set_is_shard_group(true);
    proto.set_shard_group_id(*sharding.shard_group_id());
    proto.set_shard_group_type(sharding.shard_as() ? OpSharding::AS : OpSharding::LIKE);
  }
  return proto;
}

absl::StatusOr<HloSharding> ShardingFromProto(const OpSharding& proto) {
  HloSharding sharding;
  switch (proto.type()) {
    case OpSharding::REPLICATED: sharding = HloSharding::Replicate(); break;
    case OpSharding::MANUAL: sharding = HloSharding::Manual(); break;
    case OpSharding::UNKNOWN: sharding = HloSharding::Unknown(); break;
    case OpSharding::MAXIMAL:
      if (proto.tile_assignment_devices_size() != 1) {
        return absl::InvalidArgumentError(absl::StrCat("a maximal sharding names ",
                                                       proto.tile_assignment_devices_size(),
                                                       " devices instead of one"));
      }
      sharding = HloSharding::AssignDevice(proto.tile_assignment_devices(0));
      break;
    case OpSharding::TUPLE: {
      std::vector<HloSharding> elements;
      for (const OpSharding& element : proto.tuple_shardings()) {
        SYSTOLIC_ASSIGN_OR_RETURN(HloSharding e, ShardingFromProto(element));
        elements.push_back(std::move(e));
      }
      return HloSharding::Tuple(std::move(elements));
    }
    case OpSharding::OTHER: {
      SYSTOLIC_ASSIGN_OR_RETURN(TileAssignment tiles, TilesFromProto(proto));
      std::vector<HloSharding::SubgroupType> subgroups;
      if (proto.replicate_on_last_tile_dim()) {
        subgroups.push_back(HloSharding::SubgroupType::kReplicated);
      }
      for (int type : proto.last_tile_dims()) {
        if (type == OpSharding::MANUAL) {
          subgroups.push_back(HloSharding::SubgroupType::kManual);
        } else if (type == OpSharding::REPLICATED) {
          subgroups.push_back(HloSharding::SubgroupType::kReplicated);
        } else {
          return absl::InvalidArgumentError(
              absl::StrCat("last_tile_dims has sharding type ", type,
                           " (only replicated and manual subgroups are known)"));
        }
      }
      if (subgroups.size() > tiles.dimensions().size()) {
        return absl::InvalidArgumentError("a tiled sharding has more subgroups than tile dimensions");
      }
      sharding = HloSharding::Tile(std::move(tiles), std::move(subgroups));
      break;
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("sharding type ", proto.type(), " has no form in this project"));
  }
  for (const hlo_proto::OpMetadata& metadata : proto.metadata()) {
    sharding.mutable_metadata()->push_back(OpMetadataFromProto(metadata));
  }
  if (proto.is_shard_group()) {
    sharding.SetShardGroup(proto.shard_group_id(), proto.shard_group_type() == OpSharding::AS);
  }
  return sharding;
}

}  // namespace systolic
