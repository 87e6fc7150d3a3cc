#include "core/compiler/layout_util.h"

#include <bit>

namespace systolic {

std::vector<Tile> VectorRegisterTiles(PrimitiveType type, int64_t rank, int64_t second_minor) {
  if (rank == 0 || !primitive_util::IsArrayType(type)) return {};
  if (rank == 1) return {Tile{{1024}}};
  const int bits = primitive_util::BitWidth(type);
  const int64_t pack = bits < 32 ? 32 / std::max(bits, 8) : 1;
  int64_t rows = 8 * pack;
  if (second_minor > 0 && second_minor < rows) {
    rows = std::max<int64_t>(pack, int64_t(std::bit_ceil(uint64_t(second_minor))));
  }
  std::vector<Tile> tiles = {Tile{{rows, 128}}};
  if (pack > 1) tiles.push_back(Tile{{pack, 1}});
  return tiles;
}

void SetLayout(Shape* shape, const std::vector<int64_t>& m2m, bool tiled) {
  if (shape->IsTuple()) {
    for (Shape& element : *shape->mutable_tuple_shapes()) SetDefaultLayout(&element, tiled);
    return;
  }
  if (!shape->IsArray()) return;
  Layout layout(m2m);
  if (tiled) {
    const int64_t second_minor = m2m.size() >= 2 ? shape->dimensions(m2m[1]) : 0;
    *layout.mutable_tiles() =
        VectorRegisterTiles(shape->element_type(), shape->rank(), second_minor);
  }
  shape->set_layout(std::move(layout));
}

void SetDefaultLayout(Shape* shape, bool tiled) {
  if (shape->IsTuple()) {
    for (Shape& element : *shape->mutable_tuple_shapes()) SetDefaultLayout(&element, tiled);
    return;
  }
  if (!shape->IsArray()) return;
  SetLayout(shape, Layout::Descending(shape->rank()).minor_to_major(), tiled);
}

std::vector<int64_t> MatrixUnitOperandOrder(int64_t rank, const std::vector<int64_t>& batch,
                                            const std::vector<int64_t>& contracting) {
  std::vector<int64_t> m2m(contracting.rbegin(), contracting.rend());
  for (int64_t d = rank - 1; d >= 0; --d) {
    bool is_batch = std::find(batch.begin(), batch.end(), d) != batch.end();
    bool is_contracting = std::find(contracting.begin(), contracting.end(), d) != contracting.end();
    if (!is_batch && !is_contracting) m2m.push_back(d);
  }
  for (auto it = batch.rbegin(); it != batch.rend(); ++it) m2m.push_back(*it);
  return m2m;
}

bool SameLayouts(const Shape& a, const Shape& b) {
  if (a.IsTuple() != b.IsTuple()) return false;
  if (a.IsTuple()) {
    if (a.tuple_shapes_size() != b.tuple_shapes_size()) return false;
    for (int64_t i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!SameLayouts(a.tuple_shapes(i), b.tuple_shapes(i))) return false;
    }
    return true;
  }
  if (!a.IsArray()) return true;
  if (a.has_layout() != b.has_layout()) return false;
  return !a.has_layout() || a.layout() == b.layout();
}

bool TransposeIsBitcast(const HloInstruction& transpose) {
  const Shape& in = transpose.operand(0)->shape();
  const Shape& out = transpose.shape();
  if (!in.has_layout() || !out.has_layout() || in.layout().tiles() != out.layout().tiles()) {
    return false;
  }
  const auto& in_m2m = in.layout().minor_to_major();
  const auto& out_m2m = out.layout().minor_to_major();
  if (in_m2m.size() != out_m2m.size()) return false;
  // Result dimension d is operand dimension perm[d]: the same physical order
  // means out_m2m mapped through perm is the operand's order.
  for (size_t i = 0; i < out_m2m.size(); ++i) {
    if (transpose.dimensions(out_m2m[i]) != in_m2m[i]) return false;
  }
  return true;
}

}  // namespace systolic
