// A sharding seen as a grid of partitions: a tile count per data dimension,
// a replication count (copies of each tile) and a manual count (groups the
// partitioner never communicates across), with each partition's coordinate
// in that grid. Reshards, collective groups and the operand shardings of
// dots and reduces are all worked out on grids, then turned back into
// HloShardings.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_sharding.h"

namespace systolic::spmd {

class ShardingGrid {
 public:
  // The grid of a sharding of a `rank`-D array over `num_partitions`
  // partitions. Replicated and maximal shardings are one tile everywhere
  // (maximal values are computed on every partition); {manual} is one
  // manual group per partition. Errors: tuple or unknown shardings, a rank
  // that does not match, a tile assignment that is not a permutation of
  // 0..num_partitions-1.
  static absl::StatusOr<ShardingGrid> Of(const HloSharding& sharding, int64_t rank,
                                         int64_t num_partitions);
  static ShardingGrid Replicated(int64_t rank, int64_t num_partitions);

  int64_t rank() const { return int64_t(tiles_.size()); }
  int64_t num_partitions() const { return int64_t(coordinates_.size()); }
  const std::vector<int64_t>& tiles() const { return tiles_; }
  int64_t tiles(int64_t dimension) const { return tiles_[dimension]; }
  int64_t replication() const { return replication_; }
  int64_t manual() const { return manual_; }
  bool IsTiled() const;  // some data dimension has more than one tile

  // The partition's coordinate along a data dimension, its replica index,
  // its manual group.
  int64_t Coordinate(int64_t partition, int64_t dimension) const {
    return coordinates_[partition].data[dimension];
  }
  int64_t ReplicaIndex(int64_t partition) const { return coordinates_[partition].replica; }
  int64_t ManualGroup(int64_t partition) const { return coordinates_[partition].manual; }

  // A new grid whose data dimension j is tiled by the old dimensions
  // sources[j] (major to minor, their coordinates linearised; an empty list
  // means one tile). Old data dimensions no list names fold into the
  // replication, as does the old replication. This one operation transposes,
  // merges, drops (partial replication) and adds (untiled) dimensions.
  ShardingGrid Regroup(const std::vector<std::vector<int64_t>>& sources) const;

  // Whether both grids place the same tile of `dimension` on every partition.
  bool SameTilingOf(int64_t dimension, const ShardingGrid& other, int64_t other_dimension) const;
  // Same data tiling on every dimension (replicas may sit elsewhere).
  bool SameDataTiling(const ShardingGrid& other) const;
  bool SameManualGroups(const ShardingGrid& other) const;

  // The partitions that differ only in their coordinates along
  // `dimensions`, one group per combination of the other coordinates, each
  // ordered by its coordinates along `dimensions` (row-major). This is the
  // group of an all-gather, all-reduce or reduce-scatter over those tiles.
  std::vector<std::vector<int64_t>> GroupsAlong(const std::vector<int64_t>& dimensions) const;

  // The per-partition shard size of a dimension of `size` elements:
  // ceil(size / tiles), as shards are padded to equal sizes.
  int64_t ShardSize(int64_t dimension, int64_t size) const;
  // The first element partition `partition` holds along `dimension`.
  int64_t Offset(int64_t partition, int64_t dimension, int64_t size) const {
    return Coordinate(partition, dimension) * ShardSize(dimension, size);
  }

  HloSharding ToSharding() const;

 private:
  struct Coordinates {
    std::vector<int64_t> data;
    int64_t replica = 0;
    int64_t manual = 0;
  };
  std::vector<int64_t> tiles_;
  int64_t replication_ = 1;
  int64_t manual_ = 1;
  std::vector<Coordinates> coordinates_;  // per partition
};

}  // namespace systolic::spmd
