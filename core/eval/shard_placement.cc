#include "core/eval/shard_placement.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"
#include "core/hlo/sharding_annotation.h"
#include "core/hlo/sharding_tiles.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Copies the overlap of a tile (at `offsets`, of `tile_dims`) between the
// whole array and the tile buffer, in the given direction.
void CopyTile(const Shape& whole_shape, void* whole, const std::vector<int64_t>& offsets,
              const std::vector<int64_t>& tile_dims, void* tile, bool into_tile) {
  const int64_t rank = whole_shape.rank();
  std::vector<int64_t> extent(rank);
  for (int64_t d = 0; d < rank; ++d) {
    extent[d] = std::clamp<int64_t>(whole_shape.dimensions(d) - offsets[d], 0, tile_dims[d]);
    if (extent[d] == 0) return;
  }
  const std::vector<int64_t> whole_strides = eval::RowMajorStrides(whole_shape.dimensions());
  const std::vector<int64_t> tile_strides = eval::RowMajorStrides(tile_dims);
  int64_t whole_offset = 0;
  for (int64_t d = 0; d < rank; ++d) whole_offset += offsets[d] * whole_strides[d];
  const int64_t bytes = primitive_util::ByteWidth(whole_shape.element_type());
  if (into_tile) {
    eval::StridedCopy(extent, whole, whole_offset, whole_strides, tile, 0, tile_strides, bytes);
  } else {
    eval::StridedCopy(extent, tile, 0, tile_strides, whole, whole_offset, whole_strides, bytes);
  }
}

}  // namespace

absl::StatusOr<std::vector<Literal>> SplitIntoShards(const Literal& whole,
                                                     const HloSharding& sharding,
                                                     int64_t num_partitions) {
  const Shape& shape = whole.shape();
  std::vector<Literal> shards;
  if (shape.IsTuple()) {
    std::vector<std::vector<Literal>> per_element;
    for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
      SYSTOLIC_ASSIGN_OR_RETURN(
          auto pieces, SplitIntoShards(whole.tuple_element(i), TupleElementSharding(sharding, i), num_partitions));
      per_element.push_back(std::move(pieces));
    }
    for (int64_t p = 0; p < num_partitions; ++p) {
      std::vector<Literal> elements;
      for (auto& pieces : per_element) elements.push_back(std::move(pieces[p]));
      shards.push_back(Literal::MakeTuple(std::move(elements)));
    }
    return shards;
  }
  for (int64_t p = 0; p < num_partitions; ++p) {
    SYSTOLIC_ASSIGN_OR_RETURN(std::optional<DeviceTile> tile, TileForDevice(sharding, shape, p));
    if (!tile) {  // a maximal sharding on another device: it computes the whole value too
      shards.push_back(whole.Clone());
      continue;
    }
    Literal shard(Shape(shape.element_type(), tile->dimensions));
    CopyTile(shape, const_cast<void*>(whole.untyped_data()), tile->offsets, tile->dimensions,
             shard.untyped_data(), /*into_tile=*/true);
    shards.push_back(std::move(shard));
  }
  return shards;
}

absl::StatusOr<Literal> AssembleFromShards(absl::Span<const Literal* const> shards,
                                           const Shape& shape, const HloSharding& sharding) {
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
      std::vector<const Literal*> pieces;
      for (const Literal* s : shards) {
        if (!s->shape().IsTuple() || s->shape().tuple_shapes_size() != shape.tuple_shapes_size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("a partition's result is ", s->shape().ToString(), ", expected a tuple of ",
                           shape.tuple_shapes_size()));
        }
        pieces.push_back(&s->tuple_element(i));
      }
      SYSTOLIC_ASSIGN_OR_RETURN(Literal e, AssembleFromShards(pieces, shape.tuple_shapes(i),
                                                              TupleElementSharding(sharding, i)));
      elements.push_back(std::move(e));
    }
    return Literal::MakeTuple(std::move(elements));
  }
  Literal whole(shape);
  std::vector<bool> placed;
  for (int64_t p = 0; p < int64_t(shards.size()); ++p) {
    SYSTOLIC_ASSIGN_OR_RETURN(std::optional<DeviceTile> tile, TileForDevice(sharding, shape, p));
    const int64_t index = tile ? tile->tile_index : 0;
    if (index < int64_t(placed.size()) && placed[index]) continue;  // a replica
    if (index >= int64_t(placed.size())) placed.resize(index + 1, false);
    placed[index] = true;
    const std::vector<int64_t> dims = tile ? tile->dimensions : shape.dimensions();
    const std::vector<int64_t> offsets = tile ? tile->offsets : std::vector<int64_t>(shape.rank(), 0);
    if (shards[p]->shape().dimensions() != dims || shards[p]->element_type() != shape.element_type()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "partition ", p, " holds ", shards[p]->shape().ToString(), ", its tile of ",
          shape.ToString(), " is ", Shape(shape.element_type(), dims).ToString()));
    }
    CopyTile(shape, whole.untyped_data(), offsets, dims, const_cast<void*>(shards[p]->untyped_data()),
             /*into_tile=*/false);
  }
  return whole;
}

}  // namespace systolic
