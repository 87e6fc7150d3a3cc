// Shardings to and from XLA's OpSharding: replicated, manual, unknown,
// maximal, tiled (explicit devices or iota, with last_tile_dim_replicate or
// last_tile_dims) and tuple shardings (their leaves, flattened in pre-order).
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_sharding.h"

namespace systolic {

hlo_proto::OpSharding ShardingToProto(const HloSharding& sharding);
// Errors: sharding types the IR has no form for, device lists that do not
// fill the tile assignment.
absl::StatusOr<HloSharding> ShardingFromProto(const hlo_proto::OpSharding& proto);

}  // namespace systolic
