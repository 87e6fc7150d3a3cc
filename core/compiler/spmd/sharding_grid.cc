#include "core/compiler/spmd/sharding_grid.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"

namespace systolic::spmd {
namespace {

// Row-major index of `coordinates` in a grid of `sizes`.
int64_t Linearise(const std::vector<int64_t>& coordinates, const std::vector<int64_t>& sizes) {
  int64_t index = 0;
  for (size_t i = 0; i < sizes.size(); ++i) index = index * sizes[i] + coordinates[i];
  return index;
}

int64_t Product(const std::vector<int64_t>& values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

}  // namespace

ShardingGrid ShardingGrid::Replicated(int64_t rank, int64_t num_partitions) {
  ShardingGrid grid;
  grid.tiles_.assign(rank, 1);
  grid.replication_ = num_partitions;
  grid.coordinates_.resize(num_partitions);
  for (int64_t p = 0; p < num_partitions; ++p) {
    grid.coordinates_[p].data.assign(rank, 0);
    grid.coordinates_[p].replica = p;
  }
  return grid;
}

absl::StatusOr<ShardingGrid> ShardingGrid::Of(const HloSharding& sharding, int64_t rank,
                                              int64_t num_partitions) {
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
    case HloSharding::Kind::kMaximal:
      return Replicated(rank, num_partitions);
    case HloSharding::Kind::kManual: {
      ShardingGrid grid = Replicated(rank, num_partitions);
      grid.replication_ = 1;
      grid.manual_ = num_partitions;
      for (int64_t p = 0; p < num_partitions; ++p) {
        grid.coordinates_[p].replica = 0;
        grid.coordinates_[p].manual = p;
      }
      return grid;
    }
    case HloSharding::Kind::kTuple:
    case HloSharding::Kind::kUnknown:
      return absl::InvalidArgumentError(
          absl::StrCat("sharding ", sharding.ToString(), " does not lay out one array"));
    case HloSharding::Kind::kTiled:
      break;
  }
  const TileAssignment& assignment = sharding.tile_assignment();
  const std::vector<int64_t>& dimensions = assignment.dimensions();
  if (sharding.TiledDataRank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("sharding ", sharding.ToString(), " tiles ",
                                                   sharding.TiledDataRank(),
                                                   " dimensions of a rank-", rank, " array"));
  }
  if (assignment.num_elements() != num_partitions) {
    return absl::InvalidArgumentError(absl::StrCat("sharding ", sharding.ToString(), " names ",
                                                   assignment.num_elements(), " devices, the program has ",
                                                   num_partitions, " partitions"));
  }
  ShardingGrid grid;
  grid.tiles_.assign(dimensions.begin(), dimensions.begin() + rank);
  std::vector<int64_t> replica_sizes, manual_sizes;
  for (size_t i = 0; i < sharding.subgroup_types().size(); ++i) {
    const int64_t size = dimensions[rank + i];
    (sharding.subgroup_types()[i] == HloSharding::SubgroupType::kManual ? manual_sizes
                                                                         : replica_sizes)
        .push_back(size);
  }
  grid.replication_ = Product(replica_sizes);
  grid.manual_ = Product(manual_sizes);
  grid.coordinates_.resize(num_partitions);
  std::vector<bool> seen(num_partitions, false);
  const std::vector<int64_t>& devices = assignment.devices();
  std::vector<int64_t> index(dimensions.size(), 0);
  for (int64_t flat = 0; flat < int64_t(devices.size()); ++flat) {
    const int64_t device = devices[flat];
    if (device < 0 || device >= num_partitions || seen[device]) {
      return absl::InvalidArgumentError(absl::StrCat("sharding ", sharding.ToString(),
                                                     " does not name each of the ", num_partitions,
                                                     " partitions once"));
    }
    seen[device] = true;
    Coordinates& c = grid.coordinates_[device];
    c.data.assign(index.begin(), index.begin() + rank);
    std::vector<int64_t> replica_index, manual_index;
    for (size_t i = 0; i < sharding.subgroup_types().size(); ++i) {
      (sharding.subgroup_types()[i] == HloSharding::SubgroupType::kManual ? manual_index
                                                                           : replica_index)
          .push_back(index[rank + i]);
    }
    c.replica = Linearise(replica_index, replica_sizes);
    c.manual = Linearise(manual_index, manual_sizes);
    // Next index, row-major.
    for (int64_t d = int64_t(dimensions.size()) - 1; d >= 0; --d) {
      if (++index[d] < dimensions[d]) break;
      index[d] = 0;
    }
  }
  return grid;
}

bool ShardingGrid::IsTiled() const {
  return std::any_of(tiles_.begin(), tiles_.end(), [](int64_t t) { return t > 1; });
}

ShardingGrid ShardingGrid::Regroup(const std::vector<std::vector<int64_t>>& sources) const {
  std::vector<bool> listed(tiles_.size(), false);
  for (const auto& list : sources) {
    for (int64_t d : list) listed[d] = true;
  }
  std::vector<int64_t> folded;  // old data dimensions that become replication
  for (int64_t d = 0; d < rank(); ++d) {
    if (!listed[d]) folded.push_back(d);
  }
  ShardingGrid grid;
  grid.manual_ = manual_;
  grid.replication_ = replication_;
  for (int64_t d : folded) grid.replication_ *= tiles_[d];
  for (const auto& list : sources) {
    int64_t tiles = 1;
    for (int64_t d : list) tiles *= tiles_[d];
    grid.tiles_.push_back(tiles);
  }
  grid.coordinates_.resize(coordinates_.size());
  for (size_t p = 0; p < coordinates_.size(); ++p) {
    const Coordinates& old = coordinates_[p];
    Coordinates& c = grid.coordinates_[p];
    for (const auto& list : sources) {
      std::vector<int64_t> coordinates, sizes;
      for (int64_t d : list) {
        coordinates.push_back(old.data[d]);
        sizes.push_back(tiles_[d]);
      }
      c.data.push_back(Linearise(coordinates, sizes));
    }
    std::vector<int64_t> coordinates, sizes;
    for (int64_t d : folded) {
      coordinates.push_back(old.data[d]);
      sizes.push_back(tiles_[d]);
    }
    coordinates.push_back(old.replica);
    sizes.push_back(replication_);
    c.replica = Linearise(coordinates, sizes);
    c.manual = old.manual;
  }
  return grid;
}

bool ShardingGrid::SameTilingOf(int64_t dimension, const ShardingGrid& other,
                                int64_t other_dimension) const {
  if (tiles_[dimension] != other.tiles_[other_dimension]) return false;
  if (num_partitions() != other.num_partitions()) return false;
  for (size_t p = 0; p < coordinates_.size(); ++p) {
    if (coordinates_[p].data[dimension] != other.coordinates_[p].data[other_dimension]) return false;
  }
  return true;
}

bool ShardingGrid::SameDataTiling(const ShardingGrid& other) const {
  if (rank() != other.rank()) return false;
  for (int64_t d = 0; d < rank(); ++d) {
    if (!SameTilingOf(d, other, d)) return false;
  }
  return true;
}

bool ShardingGrid::SameManualGroups(const ShardingGrid& other) const {
  if (manual_ != other.manual_ || num_partitions() != other.num_partitions()) return false;
  for (size_t p = 0; p < coordinates_.size(); ++p) {
    if (coordinates_[p].manual != other.coordinates_[p].manual) return false;
  }
  return true;
}

std::vector<std::vector<int64_t>> ShardingGrid::GroupsAlong(
    const std::vector<int64_t>& dimensions) const {
  std::vector<bool> along(tiles_.size(), false);
  std::vector<int64_t> sizes;
  for (int64_t d : dimensions) {
    along[d] = true;
    sizes.push_back(tiles_[d]);
  }
  // Key: the coordinates outside `dimensions`; value: (position, partition).
  std::map<std::vector<int64_t>, std::vector<std::pair<int64_t, int64_t>>> groups;
  for (size_t p = 0; p < coordinates_.size(); ++p) {
    const Coordinates& c = coordinates_[p];
    std::vector<int64_t> key, position;
    for (int64_t d = 0; d < rank(); ++d) {
      if (!along[d]) key.push_back(c.data[d]);
    }
    for (int64_t d : dimensions) position.push_back(c.data[d]);
    key.push_back(c.replica);
    key.push_back(c.manual);
    groups[key].emplace_back(Linearise(position, sizes), int64_t(p));
  }
  std::vector<std::vector<int64_t>> result;
  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end());
    std::vector<int64_t> group;
    for (const auto& [position, partition] : members) group.push_back(partition);
    result.push_back(std::move(group));
  }
  std::sort(result.begin(), result.end());
  return result;
}

int64_t ShardingGrid::ShardSize(int64_t dimension, int64_t size) const {
  const int64_t tiles = tiles_[dimension];
  return (size + tiles - 1) / tiles;
}

HloSharding ShardingGrid::ToSharding() const {
  const int64_t partitions = num_partitions();
  if (!IsTiled() && manual_ == 1) return HloSharding::Replicate();
  if (!IsTiled() && manual_ == partitions) return HloSharding::Manual();
  std::vector<int64_t> dimensions = tiles_;
  std::vector<HloSharding::SubgroupType> subgroups;
  if (replication_ > 1) {
    dimensions.push_back(replication_);
    subgroups.push_back(HloSharding::SubgroupType::kReplicated);
  }
  if (manual_ > 1) {
    dimensions.push_back(manual_);
    subgroups.push_back(HloSharding::SubgroupType::kManual);
  }
  std::vector<int64_t> devices(partitions);
  for (int64_t p = 0; p < partitions; ++p) {
    std::vector<int64_t> index = coordinates_[p].data;
    if (replication_ > 1) index.push_back(coordinates_[p].replica);
    if (manual_ > 1) index.push_back(coordinates_[p].manual);
    devices[Linearise(index, dimensions)] = p;
  }
  return HloSharding::Tile(TileAssignment(std::move(dimensions), std::move(devices)),
                           std::move(subgroups));
}

}  // namespace systolic::spmd
