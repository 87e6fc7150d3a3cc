// How a value is laid out across devices, in every form XLA has:
// {replicated}, {manual}, {unknown}, {maximal device=N}, tiled
// {devices=[2,2]0,1,2,3} or iota {devices=[4,2]<=[2,4]T(1,0)}, with
// last_tile_dim_replicate or last_tile_dims={manual, replicated}, tuple
// shardings {{...}, {...}}, and shard_as / shard_like groups.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/op_metadata.h"
#include "core/hlo/tile_assignment.h"

namespace systolic {

class HloSharding {
 public:
  enum class Kind { kReplicated, kManual, kUnknown, kMaximal, kTiled, kTuple };
  // The meaning of a trailing tile dimension beyond the tensor's rank.
  enum class SubgroupType { kReplicated, kManual };

  HloSharding() = default;
  static HloSharding Replicate();
  static HloSharding Manual();
  static HloSharding Unknown();
  static HloSharding AssignDevice(int64_t device);
  static HloSharding Tile(TileAssignment tiles, std::vector<SubgroupType> subgroups = {});
  static HloSharding Tuple(std::vector<HloSharding> elements);

  Kind kind() const { return kind_; }
  bool IsReplicated() const { return kind_ == Kind::kReplicated; }
  bool IsManual() const { return kind_ == Kind::kManual; }
  bool IsUnknown() const { return kind_ == Kind::kUnknown; }
  bool IsTileMaximal() const { return kind_ == Kind::kMaximal; }
  bool IsTiled() const { return kind_ == Kind::kTiled; }
  bool IsTuple() const { return kind_ == Kind::kTuple; }

  int64_t device() const { return device_; }  // maximal only
  const TileAssignment& tile_assignment() const { return tiles_; }
  // Types of the trailing subgroup dimensions of the tile assignment.
  const std::vector<SubgroupType>& subgroup_types() const { return subgroups_; }
  // Whether the last tile dimension replicates (`last_tile_dim_replicate`).
  bool ReplicateOnLastTileDim() const;
  // Rank of the tensor this tiled sharding applies to.
  int64_t TiledDataRank() const;
  const std::vector<HloSharding>& tuple_elements() const { return elements_; }

  const std::vector<OpMetadata>& metadata() const { return metadata_; }
  std::vector<OpMetadata>* mutable_metadata() { return &metadata_; }

  // shard_as N / shard_like N
  std::optional<int64_t> shard_group_id() const { return shard_group_id_; }
  bool shard_as() const { return shard_as_; }
  void SetShardGroup(int64_t id, bool shard_as) {
    shard_group_id_ = id;
    shard_as_ = shard_as;
  }

  // The text inside `sharding=`, braces included.
  std::string ToString(bool include_metadata = false) const;

  friend bool operator==(const HloSharding& a, const HloSharding& b);
  friend bool operator!=(const HloSharding& a, const HloSharding& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kReplicated;
  int64_t device_ = -1;
  TileAssignment tiles_;
  std::vector<SubgroupType> subgroups_;
  std::vector<HloSharding> elements_;
  std::vector<OpMetadata> metadata_;
  std::optional<int64_t> shard_group_id_;
  bool shard_as_ = false;
};

}  // namespace systolic
