#include "core/compiler/spmd/sharding_transforms.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace systolic::spmd {
namespace {

using SubgroupType = HloSharding::SubgroupType;

int64_t Product(absl::Span<const int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values) p *= v;
  return p;
}

// Device ids laid out row-major over `dims`; one axis per tile dimension.
struct DeviceGrid {
  std::vector<int64_t> dims;
  std::vector<int64_t> devices;

  // Axis i of the result is axis perm[i] of this grid.
  DeviceGrid Transposed(absl::Span<const int64_t> perm) const {
    const size_t rank = dims.size();
    std::vector<int64_t> strides(rank, 1);
    for (int64_t i = int64_t(rank) - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
    DeviceGrid out;
    for (int64_t p : perm) out.dims.push_back(dims[p]);
    out.devices.resize(devices.size());
    std::vector<int64_t> index(rank, 0);
    for (size_t linear = 0; linear < devices.size(); ++linear) {
      int64_t source = 0;
      for (size_t i = 0; i < rank; ++i) source += index[i] * strides[perm[i]];
      out.devices[linear] = devices[source];
      for (int64_t i = int64_t(rank) - 1; i >= 0; --i) {
        if (++index[i] < out.dims[i]) break;
        index[i] = 0;
      }
    }
    return out;
  }

  // The same grid with the order along `axis` reversed.
  DeviceGrid Flipped(int64_t axis) const {
    int64_t inner = 1;
    for (size_t i = size_t(axis) + 1; i < dims.size(); ++i) inner *= dims[i];
    const int64_t size = dims[axis];
    DeviceGrid out = *this;
    for (size_t linear = 0; linear < devices.size(); ++linear) {
      const int64_t coordinate = (int64_t(linear) / inner) % size;
      const int64_t mirrored = int64_t(linear) + (size - 1 - 2 * coordinate) * inner;
      out.devices[linear] = devices[mirrored];
    }
    return out;
  }
};

DeviceGrid GridOf(const HloSharding& sharding) {
  return {sharding.tile_assignment().dimensions(), sharding.tile_assignment().devices()};
}

// The iota spelling of `devices` over `dims`, when there is one: the
// devices are 0..n-1 and each run of equal strides forms one axis of an
// iota array that a transpose reorders.
std::optional<TileAssignment> AsIota(const std::vector<int64_t>& dims,
                                     const std::vector<int64_t>& devices) {
  const int64_t n = int64_t(devices.size());
  if (n == 0 || devices[0] != 0) return std::nullopt;
  // Axes of the transposed iota array, minor first: (size, stride).
  std::vector<std::pair<int64_t, int64_t>> axes;
  int64_t covered = 1;
  while (covered < n) {
    const int64_t stride = devices[covered];
    int64_t length = 1;
    while ((length + 1) * covered <= n && devices[length * covered] == length * stride) ++length;
    while (length > 1 && n % (length * covered) != 0) --length;
    if (length == 1 || stride <= 0) return std::nullopt;
    axes.emplace_back(length, stride);
    covered *= length;
  }
  std::reverse(axes.begin(), axes.end());  // major first
  // The untransposed iota array orders axes by decreasing stride.
  std::vector<int64_t> by_stride(axes.size());
  std::iota(by_stride.begin(), by_stride.end(), 0);
  std::sort(by_stride.begin(), by_stride.end(),
            [&](int64_t a, int64_t b) { return axes[a].second > axes[b].second; });
  std::vector<int64_t> reshape_dims;
  std::vector<int64_t> perm(axes.size());
  for (size_t r = 0; r < by_stride.size(); ++r) {
    reshape_dims.push_back(axes[by_stride[r]].first);
    perm[by_stride[r]] = int64_t(r);
  }
  if (reshape_dims.empty()) reshape_dims.push_back(1);
  auto iota = TileAssignment::Iota(dims, reshape_dims, axes.empty() ? std::vector<int64_t>{} : perm);
  if (!iota.ok() || iota->devices() != devices) return std::nullopt;
  return *iota;
}

// A tiled sharding from `grid`, whose first `data_rank` axes tile the data
// and whose remaining axes are subgroups of the kinds `kinds`, in the
// canonical form the header describes.
HloSharding CanonicalTiled(DeviceGrid grid, size_t data_rank, const std::vector<SubgroupType>& kinds,
                           bool prefer_iota) {
  // Order the subgroup axes manual first, replicated last, then merge each kind.
  std::vector<int64_t> perm(data_rank);
  std::iota(perm.begin(), perm.end(), 0);
  int64_t manual = 1, replicated = 1;
  for (SubgroupType kind : {SubgroupType::kManual, SubgroupType::kReplicated}) {
    for (size_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] != kind) continue;
      perm.push_back(int64_t(data_rank + i));
      (kind == SubgroupType::kManual ? manual : replicated) *= grid.dims[data_rank + i];
    }
  }
  grid = grid.Transposed(perm);
  grid.dims.resize(data_rank);
  std::vector<SubgroupType> merged_kinds;
  if (manual > 1) {
    grid.dims.push_back(manual);
    merged_kinds.push_back(SubgroupType::kManual);
  }
  if (replicated > 1) {
    grid.dims.push_back(replicated);
    merged_kinds.push_back(SubgroupType::kReplicated);
  }
  const bool tiles_data = Product(absl::MakeConstSpan(grid.dims).subspan(0, data_rank)) > 1;
  if (!tiles_data && merged_kinds.size() <= 1) {
    const bool all_manual = !merged_kinds.empty() && merged_kinds[0] == SubgroupType::kManual;
    return all_manual ? HloSharding::Manual() : HloSharding::Replicate();
  }
  if (replicated > 1) {
    // Which replica holds which copy carries no meaning: list them in order.
    for (auto it = grid.devices.begin(); it != grid.devices.end(); it += replicated) {
      std::sort(it, it + replicated);
    }
  }
  std::optional<TileAssignment> iota;
  if (prefer_iota) iota = AsIota(grid.dims, grid.devices);
  TileAssignment tiles = iota ? *iota : TileAssignment(grid.dims, grid.devices);
  return HloSharding::Tile(std::move(tiles), std::move(merged_kinds));
}

// Per-dimension tile counts of the data of a tiled sharding.
std::vector<int64_t> DataTiles(const HloSharding& sharding) {
  const auto& dims = sharding.tile_assignment().dimensions();
  return std::vector<int64_t>(dims.begin(), dims.begin() + sharding.TiledDataRank());
}

// Dimensions of a reshape matched in groups of equal element count.
struct ReshapeGroup {
  std::vector<int64_t> from;
  std::vector<int64_t> to;
};

std::vector<ReshapeGroup> GroupReshapeDimensions(absl::Span<const int64_t> from,
                                                 absl::Span<const int64_t> to) {
  std::vector<ReshapeGroup> groups;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    ReshapeGroup group;
    int64_t from_count = 1, to_count = 1;
    if (i < from.size()) from_count *= from[i], group.from.push_back(int64_t(i++));
    if (j < to.size()) to_count *= to[j], group.to.push_back(int64_t(j++));
    while (from_count != to_count) {
      if (from_count < to_count && i < from.size()) {
        from_count *= from[i];
        group.from.push_back(int64_t(i++));
      } else if (to_count < from_count && j < to.size()) {
        to_count *= to[j];
        group.to.push_back(int64_t(j++));
      } else {
        break;
      }
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

// The tile counts of the `to` dimensions of `group` when the tiling of its
// `from` dimensions survives the reshape, else nullopt. It survives when
// each device's tile of the flattened group is one contiguous run: the
// tiled dimensions before the first partly split one are split to single
// elements, those after it are untiled, and the flattened tiles split over
// the new dimensions the same way.
std::optional<std::vector<int64_t>> GroupTilesAfterReshape(const ReshapeGroup& group,
                                                           absl::Span<const int64_t> from,
                                                           absl::Span<const int64_t> to,
                                                           absl::Span<const int64_t> tiles) {
  int64_t total = 1;
  bool partly_split_seen = false;
  for (int64_t d : group.from) {
    const int64_t t = tiles[d];
    if (partly_split_seen) {
      if (t != 1) return std::nullopt;
    } else if (t != from[d]) {
      if (from[d] % t != 0) return std::nullopt;
      partly_split_seen = true;
    }
    total *= t;
  }
  std::vector<int64_t> out;
  int64_t remaining = total;
  for (int64_t d : group.to) {
    const int64_t size = to[d];
    if (remaining == 1) {
      out.push_back(1);
    } else if (size > 0 && remaining % size == 0) {
      out.push_back(size);
      remaining /= size;
    } else if (size > 0 && size % remaining == 0) {
      out.push_back(remaining);
      remaining = 1;
    } else {
      return std::nullopt;
    }
  }
  if (remaining != 1) return std::nullopt;
  return out;
}

}  // namespace

int64_t ShardCount(const HloSharding& sharding) {
  if (!sharding.IsTiled()) return 1;
  const auto& dims = sharding.tile_assignment().dimensions();
  int64_t count = Product(DataTiles(sharding));
  for (size_t i = 0; i < sharding.subgroup_types().size(); ++i) {
    if (sharding.subgroup_types()[i] == SubgroupType::kManual) {
      count *= dims[sharding.TiledDataRank() + int64_t(i)];
    }
  }
  return count;
}

HloSharding WithoutAnnotations(const HloSharding& sharding) {
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
      return HloSharding::Replicate();
    case HloSharding::Kind::kManual:
      return HloSharding::Manual();
    case HloSharding::Kind::kUnknown:
      return HloSharding::Unknown();
    case HloSharding::Kind::kMaximal:
      return HloSharding::AssignDevice(sharding.device());
    case HloSharding::Kind::kTiled:
      return HloSharding::Tile(sharding.tile_assignment(), sharding.subgroup_types());
    case HloSharding::Kind::kTuple: {
      std::vector<HloSharding> elements;
      for (const HloSharding& e : sharding.tuple_elements()) elements.push_back(WithoutAnnotations(e));
      return HloSharding::Tuple(std::move(elements));
    }
  }
  return sharding;
}

HloSharding RemapDimensions(const HloSharding& sharding, absl::Span<const int64_t> source_dims) {
  if (!sharding.IsTiled()) return WithoutAnnotations(sharding);
  const int64_t data_rank = sharding.TiledDataRank();
  const DeviceGrid grid = GridOf(sharding);
  std::vector<bool> used(size_t(data_rank), false);
  std::vector<int64_t> perm;
  std::vector<int64_t> dims;
  for (int64_t source : source_dims) {
    if (source >= 0 && source < data_rank && !used[source]) {
      used[source] = true;
      perm.push_back(source);
      dims.push_back(grid.dims[source]);
    } else {
      dims.push_back(1);  // a new dimension: a size-1 axis needs no place in `perm`
    }
  }
  std::vector<SubgroupType> kinds;
  for (size_t i = 0; i < sharding.subgroup_types().size(); ++i) {
    perm.push_back(data_rank + int64_t(i));
    dims.push_back(grid.dims[data_rank + i]);
    kinds.push_back(sharding.subgroup_types()[i]);
  }
  for (int64_t d = 0; d < data_rank; ++d) {
    if (used[d]) continue;
    perm.push_back(d);
    dims.push_back(grid.dims[d]);
    kinds.push_back(SubgroupType::kReplicated);
  }
  DeviceGrid remapped = grid.Transposed(perm);
  remapped.dims = std::move(dims);
  return CanonicalTiled(std::move(remapped), source_dims.size(), kinds,
                        sharding.tile_assignment().is_iota());
}

HloSharding ReplicateDimensions(const HloSharding& sharding, absl::Span<const int64_t> dims) {
  if (!sharding.IsTiled()) return WithoutAnnotations(sharding);
  std::vector<int64_t> source_dims(size_t(sharding.TiledDataRank()));
  std::iota(source_dims.begin(), source_dims.end(), 0);
  for (int64_t d : dims) {
    if (d >= 0 && d < int64_t(source_dims.size())) source_dims[d] = -1;
  }
  return RemapDimensions(sharding, source_dims);
}

HloSharding ReshapeSharding(const HloSharding& sharding, absl::Span<const int64_t> from,
                            absl::Span<const int64_t> to) {
  if (!sharding.IsTiled()) return WithoutAnnotations(sharding);
  if (sharding.TiledDataRank() != int64_t(from.size()) || Product(from) != Product(to)) {
    return RemapDimensions(sharding, std::vector<int64_t>(to.size(), -1));
  }
  const std::vector<ReshapeGroup> groups = GroupReshapeDimensions(from, to);
  // Where a group's tiling cannot follow, its tiled dimensions are
  // replicated from the minor end until the rest can.
  std::vector<int64_t> to_replicate;
  std::vector<int64_t> tiles = DataTiles(sharding);
  for (const ReshapeGroup& group : groups) {
    for (auto d = group.from.rbegin(); d != group.from.rend(); ++d) {
      if (GroupTilesAfterReshape(group, from, to, tiles)) break;
      if (tiles[*d] == 1) continue;
      tiles[*d] = 1;
      to_replicate.push_back(*d);
    }
  }
  const HloSharding source =
      to_replicate.empty() ? sharding : ReplicateDimensions(sharding, to_replicate);
  if (!source.IsTiled()) return source;
  // The tile grid of a group is flattened and split again in the same
  // row-major order, so the device list itself does not move.
  const std::vector<int64_t> source_tiles = DataTiles(source);
  std::vector<int64_t> dims(to.size(), 1);
  for (const ReshapeGroup& group : groups) {
    auto group_tiles = GroupTilesAfterReshape(group, from, to, source_tiles);
    if (!group_tiles) return RemapDimensions(source, std::vector<int64_t>(to.size(), -1));
    for (size_t k = 0; k < group.to.size(); ++k) dims[group.to[k]] = (*group_tiles)[k];
  }
  DeviceGrid grid = GridOf(source);
  const auto& all_dims = source.tile_assignment().dimensions();
  dims.insert(dims.end(), all_dims.begin() + source.TiledDataRank(), all_dims.end());
  grid.dims = std::move(dims);
  return CanonicalTiled(std::move(grid), to.size(), source.subgroup_types(),
                        sharding.tile_assignment().is_iota());
}

HloSharding ReverseSharding(const HloSharding& sharding, absl::Span<const int64_t> dims) {
  if (!sharding.IsTiled()) return WithoutAnnotations(sharding);
  DeviceGrid grid = GridOf(sharding);
  for (int64_t d : dims) {
    if (d >= 0 && d < sharding.TiledDataRank() && grid.dims[d] > 1) grid = grid.Flipped(d);
  }
  return CanonicalTiled(std::move(grid), size_t(sharding.TiledDataRank()),
                        sharding.subgroup_types(), sharding.tile_assignment().is_iota());
}

std::optional<HloSharding> MergeShardings(const HloSharding& a, const HloSharding& b) {
  if (!a.IsTiled() || !b.IsTiled() || a.TiledDataRank() != b.TiledDataRank()) return std::nullopt;
  for (const HloSharding* s : {&a, &b}) {
    for (SubgroupType kind : s->subgroup_types()) {
      if (kind == SubgroupType::kManual) return std::nullopt;
    }
  }
  const std::vector<int64_t> a_tiles = DataTiles(a);
  const std::vector<int64_t> b_tiles = DataTiles(b);
  std::vector<int64_t> merged_tiles;
  for (size_t d = 0; d < a_tiles.size(); ++d) {
    if (a_tiles[d] != b_tiles[d] && a_tiles[d] != 1 && b_tiles[d] != 1) return std::nullopt;
    merged_tiles.push_back(std::max(a_tiles[d], b_tiles[d]));
  }
  const std::vector<int64_t>& a_devices = a.tile_assignment().devices();
  const std::vector<int64_t>& b_devices = b.tile_assignment().devices();
  const int64_t n = int64_t(a_devices.size());
  const int64_t tile_count = Product(merged_tiles);
  if (n != int64_t(b_devices.size()) || n % tile_count != 0) return std::nullopt;

  // Each device's data coordinates under b.
  const int64_t b_group = Product(b.tile_assignment().dimensions()) / Product(b_tiles);
  absl::flat_hash_map<int64_t, int64_t> b_tile_of_device;
  for (int64_t i = 0; i < n; ++i) b_tile_of_device[b_devices[i]] = i / b_group;
  const int64_t a_group = n / Product(a_tiles);
  std::vector<std::vector<int64_t>> devices_of_tile(static_cast<size_t>(tile_count));
  for (int64_t i = 0; i < n; ++i) {
    auto it = b_tile_of_device.find(a_devices[i]);
    if (it == b_tile_of_device.end()) return std::nullopt;
    int64_t a_rest = i / a_group, b_rest = it->second;
    // Row-major coordinates, minor dimension first.
    int64_t merged = 0, scale = 1;
    for (int64_t d = int64_t(a_tiles.size()) - 1; d >= 0; --d) {
      const int64_t a_coordinate = a_rest % a_tiles[d];
      const int64_t b_coordinate = b_rest % b_tiles[d];
      a_rest /= a_tiles[d];
      b_rest /= b_tiles[d];
      if (a_tiles[d] > 1 && b_tiles[d] > 1 && a_coordinate != b_coordinate) return std::nullopt;
      merged += (a_tiles[d] > 1 ? a_coordinate : b_coordinate) * scale;
      scale *= merged_tiles[d];
    }
    devices_of_tile[merged].push_back(a_devices[i]);
  }
  const int64_t replicas = n / tile_count;
  DeviceGrid grid{merged_tiles, {}};
  for (const auto& devices : devices_of_tile) {
    if (int64_t(devices.size()) != replicas) return std::nullopt;
    grid.devices.insert(grid.devices.end(), devices.begin(), devices.end());
  }
  grid.dims.push_back(replicas);
  return CanonicalTiled(std::move(grid), merged_tiles.size(), {SubgroupType::kReplicated},
                        a.tile_assignment().is_iota() || b.tile_assignment().is_iota());
}

bool IsMoreSpecific(const HloSharding& candidate, const HloSharding& current) {
  if (candidate.IsUnknown() || candidate.IsTuple()) return false;
  if (current.IsUnknown()) return true;
  if (current.IsManual() || current.IsTileMaximal() || candidate.IsManual()) return false;
  if (current.IsReplicated()) {
    return candidate.IsTileMaximal() || (candidate.IsTiled() && ShardCount(candidate) > 1);
  }
  return candidate.IsTiled() && ShardCount(candidate) > ShardCount(current);
}

}  // namespace systolic::spmd
