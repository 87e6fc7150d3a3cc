#include "core/compiler/spmd/reshard.h"

#include <map>
#include <optional>

#include "absl/strings/str_cat.h"

namespace systolic::spmd {
namespace {

// Same tiles, other partitions: every partition receives its new tile from
// a partition that holds it now (distinct senders for replicated tiles).
std::optional<std::vector<std::pair<int64_t, int64_t>>> PermutationPairs(
    const ShardingGrid& from, const ShardingGrid& to) {
  if (from.tiles() != to.tiles()) return std::nullopt;
  const int64_t partitions = from.num_partitions();
  auto data_of = [](const ShardingGrid& grid, int64_t p) {
    std::vector<int64_t> key;
    for (int64_t d = 0; d < grid.rank(); ++d) key.push_back(grid.Coordinate(p, d));
    key.push_back(grid.ManualGroup(p));
    return key;
  };
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  for (int64_t p = partitions - 1; p >= 0; --p) holders[data_of(from, p)].push_back(p);
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t q = 0; q < partitions; ++q) {
    auto it = holders.find(data_of(to, q));
    if (it == holders.end() || it->second.empty()) return std::nullopt;
    pairs.emplace_back(it->second.back(), q);
    it->second.pop_back();
  }
  return pairs;
}

// The one dimension pair (i, j) such that `from` tiles i like `to` tiles j
// and every other dimension is tiled alike (and neither i in `to` nor j in
// `from` is tiled), with both dimensions even: an all-to-all moves the
// tiling from i to j.
std::optional<std::pair<int64_t, int64_t>> MovedTiling(const ShardingGrid& from,
                                                       const ShardingGrid& to,
                                                       const Shape& global) {
  std::vector<int64_t> differing;
  for (int64_t d = 0; d < from.rank(); ++d) {
    if (!from.SameTilingOf(d, to, d)) differing.push_back(d);
  }
  if (differing.size() != 2) return std::nullopt;
  for (auto [i, j] : {std::pair{differing[0], differing[1]}, std::pair{differing[1], differing[0]}}) {
    if (from.tiles(j) != 1 || to.tiles(i) != 1 || !from.SameTilingOf(i, to, j)) continue;
    const int64_t tiles = from.tiles(i);
    if (global.dimensions(i) % tiles != 0 || global.dimensions(j) % tiles != 0) continue;
    return std::pair{i, j};
  }
  return std::nullopt;
}

HloInstruction* AllToAllMove(SpmdBuilder& b, const PartitionedArray& value, int64_t i, int64_t j) {
  HloInstruction* x = value.local;
  const PrimitiveType type = x->shape().element_type();
  const int64_t tiles = value.grid.tiles(i);
  const std::vector<int64_t> local = x->shape().dimensions();
  // Split j into (tiles, rest): the all-to-all sends chunk k to the k-th
  // partition of the group and stacks what it receives in that new
  // dimension, ordered by the senders' tiles of i.
  std::vector<int64_t> split = local;
  split[j] = local[j] / tiles;
  split.insert(split.begin() + j, tiles);
  x = b.Add(HloInstruction::CreateReshape(b.ArrayShape(type, split), x));
  x = b.AllToAll(x, j, value.grid.GroupsAlong({i}));
  // Move the senders' dimension just before i and merge the two.
  const int64_t i_in_split = i < j ? i : i + 1;
  std::vector<int64_t> order;
  for (int64_t d = 0; d < int64_t(split.size()); ++d) {
    if (d == j) continue;
    if (d == i_in_split) order.push_back(j);
    order.push_back(d);
  }
  std::vector<int64_t> transposed;
  for (int64_t d : order) transposed.push_back(split[d]);
  x = b.Add(HloInstruction::CreateTranspose(b.ArrayShape(type, transposed), x, order));
  std::vector<int64_t> result = local;
  result[i] = local[i] * tiles;
  result[j] = local[j] / tiles;
  return b.Add(HloInstruction::CreateReshape(b.ArrayShape(type, result), x));
}

}  // namespace

std::vector<int64_t> ShardDimensions(const ShardingGrid& grid, const Shape& global) {
  std::vector<int64_t> dimensions;
  for (int64_t d = 0; d < global.rank(); ++d) {
    dimensions.push_back(grid.ShardSize(d, global.dimensions(d)));
  }
  return dimensions;
}

absl::StatusOr<HloInstruction*> Reshard(SpmdBuilder& b, const PartitionedArray& value,
                                        const ShardingGrid& target) {
  const ShardingGrid& from = value.grid;
  if (!from.SameManualGroups(target)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot move ", value.local->name(), " from ", from.ToSharding().ToString(),
                     " to ", target.ToSharding().ToString(), ": their manual groups differ"));
  }
  if (from.SameDataTiling(target)) return value.local;
  if (auto pairs = PermutationPairs(from, target)) {
    return b.CollectivePermute(value.local, *pairs);
  }
  if (auto moved = MovedTiling(from, target, value.global)) {
    return AllToAllMove(b, value, moved->first, moved->second);
  }
  // Gather every dimension whose tiling changes.
  HloInstruction* x = value.local;
  ShardingGrid current = from;
  std::vector<bool> changed(from.rank(), false);
  for (int64_t d = 0; d < from.rank(); ++d) {
    changed[d] = !from.SameTilingOf(d, target, d);
    if (!changed[d] || current.tiles(d) == 1) continue;
    x = b.AllGather(x, d, current.GroupsAlong({d}));
    std::vector<std::vector<int64_t>> sources;
    for (int64_t k = 0; k < current.rank(); ++k) {
      sources.push_back(k == d ? std::vector<int64_t>{} : std::vector<int64_t>{k});
    }
    current = current.Regroup(sources);
  }
  // Trim gathered padding, pad to the new tiles' padded size, then cut out
  // this partition's tile.
  std::vector<int64_t> sizes = x->shape().dimensions();
  bool slice = false;
  for (int64_t d = 0; d < from.rank(); ++d) {
    if (!changed[d]) continue;
    sizes[d] = target.tiles(d) * target.ShardSize(d, value.global.dimensions(d));
    slice = slice || target.tiles(d) > 1;
  }
  x = b.Resize(x, sizes);
  if (!slice) return x;
  std::vector<HloInstruction*> offsets = b.Offsets(target, value.global);
  std::vector<int64_t> shard = ShardDimensions(target, value.global);
  for (int64_t d = 0; d < from.rank(); ++d) {
    if (!changed[d]) {
      offsets[d] = b.PerPartition(std::vector<int64_t>(from.num_partitions(), 0));
      shard[d] = x->shape().dimensions(d);
    }
  }
  return b.DynamicSlice(x, offsets, shard);
}

}  // namespace systolic::spmd
