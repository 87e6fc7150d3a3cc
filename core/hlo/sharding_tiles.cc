#include "core/hlo/sharding_tiles.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/primitive_type.h"

namespace systolic {
namespace {

int64_t BytesOf(PrimitiveType type, absl::Span<const int64_t> dimensions) {
  int64_t elements = 1;
  for (int64_t d : dimensions) elements *= d;
  return elements * primitive_util::ByteWidth(type);
}

DeviceTile WholeArray(const Shape& shape, int64_t device) {
  DeviceTile tile;
  tile.device = device;
  const size_t rank = shape.dimensions().size();
  tile.tile_coordinates.assign(rank, 0);
  tile.offsets.assign(rank, 0);
  tile.dimensions = shape.dimensions();
  tile.bytes = BytesOf(shape.element_type(), tile.dimensions);
  return tile;
}

}  // namespace

std::vector<int64_t> TileGridOf(const HloSharding& sharding, int64_t rank) {
  std::vector<int64_t> grid(size_t(std::max<int64_t>(rank, 0)), 1);
  if (!sharding.IsTiled()) return grid;
  const std::vector<int64_t>& dims = sharding.tile_assignment().dimensions();
  for (int64_t i = 0; i < rank && i < int64_t(dims.size()); ++i) grid[size_t(i)] = dims[size_t(i)];
  return grid;
}

absl::StatusOr<std::optional<DeviceTile>> TileForDevice(const HloSharding& sharding,
                                                        const Shape& shape, int64_t device) {
  if (sharding.IsTuple() || shape.IsTuple()) {
    return absl::InvalidArgumentError("a tuple has one tile per element: ask for an element");
  }
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
    case HloSharding::Kind::kManual:
    case HloSharding::Kind::kUnknown:
      return std::optional<DeviceTile>(WholeArray(shape, device));
    case HloSharding::Kind::kMaximal:
      if (sharding.device() != device) return std::optional<DeviceTile>();
      return std::optional<DeviceTile>(WholeArray(shape, device));
    default:
      break;
  }
  const int64_t rank = int64_t(shape.dimensions().size());
  if (sharding.TiledDataRank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("sharding ", sharding.ToString(), " tiles ",
                                                   sharding.TiledDataRank(),
                                                   " dimensions, the array has ", rank));
  }
  // Where the device sits in the tile assignment; the trailing subgroup
  // dimensions only say which replica it is.
  const TileAssignment& assignment = sharding.tile_assignment();
  const std::vector<int64_t>& devices = assignment.devices();
  const std::vector<int64_t>& grid = assignment.dimensions();
  int64_t position = -1;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i] == device) {
      position = int64_t(i);
      break;
    }
  }
  if (position < 0) return std::optional<DeviceTile>();
  std::vector<int64_t> coordinates(grid.size(), 0);
  for (int64_t i = int64_t(grid.size()) - 1; i >= 0; --i) {
    coordinates[size_t(i)] = position % grid[size_t(i)];
    position /= grid[size_t(i)];
  }
  DeviceTile tile;
  tile.device = device;
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t tiles = grid[size_t(i)];
    const int64_t extent = (shape.dimensions()[size_t(i)] + tiles - 1) / tiles;
    tile.tile_coordinates.push_back(coordinates[size_t(i)]);
    tile.offsets.push_back(coordinates[size_t(i)] * extent);
    tile.dimensions.push_back(extent);
    tile.tile_index = tile.tile_index * tiles + coordinates[size_t(i)];
  }
  tile.bytes = BytesOf(shape.element_type(), tile.dimensions);
  return std::optional<DeviceTile>(tile);
}

}  // namespace systolic
