// Which piece of a tensor each device holds under a sharding: the tile
// index (row-major over the tensor's tile dimensions), its offsets and its
// shape. Shards have XLA's padded shape, ceil(dim / tiles) per dimension, so
// every device of a tiled sharding holds the same number of bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/shape.h"

namespace systolic {

struct DeviceTile {
  int64_t device = 0;
  // Row-major index over the tile dimensions of the data; devices with the
  // same index hold the same data (replicas).
  int64_t tile_index = 0;
  std::vector<int64_t> tile_coordinates;  // one per tensor dimension
  std::vector<int64_t> offsets;           // first element held, per dimension
  std::vector<int64_t> dimensions;        // the shard's (padded) shape
  int64_t bytes = 0;
  friend bool operator==(const DeviceTile&, const DeviceTile&) = default;
};

// The tile `device` holds of an array of `shape` under `sharding`; nullopt
// when it holds none (a maximal sharding on another device). Replicated and
// manual shardings give every device the whole array as tile 0. Tuple
// shardings and shapes are an error: ask per element.
absl::StatusOr<std::optional<DeviceTile>> TileForDevice(const HloSharding& sharding,
                                                        const Shape& shape, int64_t device);

// Tiles per tensor dimension (1 for each when not tiled).
std::vector<int64_t> TileGridOf(const HloSharding& sharding, int64_t rank);

}  // namespace systolic
