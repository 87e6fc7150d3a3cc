// Physical layout of an array shape, as XLA prints it:
// `{1,0:T(8,128)(2,1)E(16)S(1)}` = minor-to-major order, tiles, element
// size in bits, memory space.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/primitive_type.h"

namespace systolic {

// One level of tiling. A dimension of kCombineDimension ('*') folds that
// dimension into the next minor one.
struct Tile {
  static constexpr int64_t kCombineDimension = -1;
  std::vector<int64_t> dimensions;
  std::string ToString() const;  // "(8,128)"
  friend bool operator==(const Tile&, const Tile&) = default;
};

class Layout {
 public:
  Layout() = default;
  explicit Layout(std::vector<int64_t> minor_to_major) : minor_to_major_(std::move(minor_to_major)) {}

  const std::vector<int64_t>& minor_to_major() const { return minor_to_major_; }
  std::vector<int64_t>* mutable_minor_to_major() { return &minor_to_major_; }
  int64_t minor_to_major(int i) const { return minor_to_major_[i]; }

  // Per-dimension level types of sparse layouts ("D", "C", "S", with "+" /
  // "~" suffixes), printed as D(D,C).
  const std::vector<std::string>& dim_level_types() const { return dim_level_types_; }
  std::vector<std::string>* mutable_dim_level_types() { return &dim_level_types_; }

  const std::vector<Tile>& tiles() const { return tiles_; }
  std::vector<Tile>* mutable_tiles() { return &tiles_; }

  int64_t element_size_in_bits() const { return element_size_in_bits_; }
  void set_element_size_in_bits(int64_t bits) { element_size_in_bits_ = bits; }

  // 0 is the default (device HBM); other values name on-chip memories.
  int64_t memory_space() const { return memory_space_; }
  void set_memory_space(int64_t space) { memory_space_ = space; }

  int64_t tail_padding_alignment_in_elements() const { return tail_padding_alignment_; }
  void set_tail_padding_alignment_in_elements(int64_t v) { tail_padding_alignment_ = v; }

  PrimitiveType index_primitive_type() const { return index_type_; }
  void set_index_primitive_type(PrimitiveType t) { index_type_ = t; }
  PrimitiveType pointer_primitive_type() const { return pointer_type_; }
  void set_pointer_primitive_type(PrimitiveType t) { pointer_type_ = t; }

  int64_t dynamic_shape_metadata_prefix_bytes() const { return dynamic_prefix_bytes_; }
  void set_dynamic_shape_metadata_prefix_bytes(int64_t v) { dynamic_prefix_bytes_ = v; }

  // The descending layout {rank-1, ..., 0}: row-major.
  static Layout Descending(int64_t rank);
  bool IsDescending() const;

  std::string ToString() const;  // "{1,0:T(8,128)}"
  void AppendTo(std::string* out) const;  // appends ToString()
  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  std::vector<int64_t> minor_to_major_;
  std::vector<std::string> dim_level_types_;
  std::vector<Tile> tiles_;
  int64_t element_size_in_bits_ = 0;
  int64_t memory_space_ = 0;
  int64_t tail_padding_alignment_ = 1;
  PrimitiveType index_type_ = PRIMITIVE_TYPE_INVALID;
  PrimitiveType pointer_type_ = PRIMITIVE_TYPE_INVALID;
  int64_t dynamic_prefix_bytes_ = 0;
};

}  // namespace systolic
