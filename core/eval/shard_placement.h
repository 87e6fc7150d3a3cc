// Placing whole arrays on partitions and gathering them back, as a runtime
// does for a partitioned program (jax.device_put with a sharding, and the
// gather of a sharded result): each partition gets the tile its sharding
// gives it, padded with zeros to the common shard size; the result is put
// together from one holder of each tile, padding dropped. Tuples go element
// by element with tuple shardings.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/literal.h"

namespace systolic {

// shards[p] is partition p's piece of `whole`.
absl::StatusOr<std::vector<Literal>> SplitIntoShards(const Literal& whole,
                                                     const HloSharding& sharding,
                                                     int64_t num_partitions);

// The whole value of `shape` from each partition's piece (shards[p]).
absl::StatusOr<Literal> AssembleFromShards(absl::Span<const Literal* const> shards,
                                           const Shape& shape, const HloSharding& sharding);

}  // namespace systolic
