#include "core/compiler/shape_size.h"

#include <algorithm>
#include <vector>

namespace systolic {
namespace {

int64_t ArrayElementCount(const Shape& shape, bool padded) {
  std::vector<int64_t> dims = shape.dimensions();
  for (int64_t& d : dims) d = std::max<int64_t>(d, 0);
  if (padded && shape.has_layout() && !shape.layout().tiles().empty() &&
      int64_t(shape.layout().minor_to_major().size()) == shape.rank()) {
    // The first tile covers the most minor dimensions, its last entry the
    // most minor one.
    const Tile& tile = shape.layout().tiles().front();
    const auto& m2m = shape.layout().minor_to_major();
    int64_t n = int64_t(tile.dimensions.size());
    for (int64_t i = 0; i < n && i < shape.rank(); ++i) {
      int64_t tile_dim = tile.dimensions[n - 1 - i];
      if (tile_dim <= 0) continue;  // '*' combines dimensions: no padding of its own
      int64_t& d = dims[m2m[i]];
      d = (d + tile_dim - 1) / tile_dim * tile_dim;
    }
  }
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

int64_t SizeOf(const Shape& shape, bool padded) {
  if (shape.IsTuple()) {
    int64_t total = 0;
    for (const Shape& element : shape.tuple_shapes()) total += SizeOf(element, padded);
    return total;
  }
  if (!shape.IsArray()) return 0;
  return ArrayElementCount(shape, padded) * primitive_util::ByteWidth(shape.element_type());
}

}  // namespace

int64_t ByteSizeOf(const Shape& shape) { return SizeOf(shape, /*padded=*/true); }
int64_t UnpaddedByteSizeOf(const Shape& shape) { return SizeOf(shape, /*padded=*/false); }

}  // namespace systolic
