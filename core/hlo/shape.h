// The shape of an HLO value: an array (element type, dimensions, optional
// bounded-dynamic dimensions, optional layout), a tuple of shapes, a token or
// an opaque handle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "core/hlo/layout.h"
#include "core/hlo/primitive_type.h"

namespace systolic {

class Shape {
 public:
  // A dimension whose bound is unknown, printed `?`.
  static constexpr int64_t kUnboundedSize = INT64_MIN;

  Shape() = default;
  Shape(PrimitiveType element_type, absl::Span<const int64_t> dimensions);

  static Shape MakeTuple(std::vector<Shape> elements);
  static Shape MakeToken();
  static Shape MakeOpaque();
  static Shape MakeScalar(PrimitiveType element_type) { return Shape(element_type, {}); }

  PrimitiveType element_type() const { return element_type_; }
  void set_element_type(PrimitiveType t) { element_type_ = t; }

  bool IsArray() const { return primitive_util::IsArrayType(element_type_); }
  bool IsTuple() const { return element_type_ == TUPLE; }
  bool IsToken() const { return element_type_ == TOKEN; }
  bool IsOpaque() const { return element_type_ == OPAQUE_TYPE; }
  bool IsScalar() const { return IsArray() && dimensions_.empty(); }

  int64_t rank() const { return int64_t(dimensions_.size()); }
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t dimensions(int64_t i) const { return dimensions_[i]; }
  std::vector<int64_t>* mutable_dimensions() { return &dimensions_; }
  void set_dimensions(int64_t i, int64_t size) { dimensions_[i] = size; }
  void add_dimensions(int64_t size, bool dynamic = false);
  void DeleteDimension(int64_t i);

  // A dynamic dimension's size is a bound; the runtime size may be smaller.
  bool is_dynamic_dimension(int64_t i) const { return !dynamic_.empty() && dynamic_[i]; }
  void set_dynamic_dimension(int64_t i, bool dynamic);
  bool is_static() const;
  bool is_unbounded_dynamic() const;

  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  const Shape& tuple_shapes(int64_t i) const { return tuple_shapes_[i]; }
  Shape* mutable_tuple_shapes(int64_t i) { return &tuple_shapes_[i]; }
  std::vector<Shape>* mutable_tuple_shapes() { return &tuple_shapes_; }
  int64_t tuple_shapes_size() const { return int64_t(tuple_shapes_.size()); }

  bool has_layout() const { return layout_.has_value(); }
  const Layout& layout() const;
  Layout* mutable_layout();
  void set_layout(Layout layout) { layout_ = std::move(layout); }
  void clear_layout() { layout_.reset(); }
  // Removes layouts from this shape and every nested tuple element.
  void ClearLayoutsRecursively();

  // Number of elements of an array shape (1 for a scalar).
  int64_t num_elements() const;

  // `f32[2,<=3]` or `(f32[2], s32[])`; with the layout: `f32[2,3]{1,0}`.
  std::string ToString(bool print_layout = false) const;
  // Appends ToString(print_layout) to `out` (printers build one string).
  void AppendTo(std::string* out, bool print_layout = false) const;

  // Equality including layouts (when both have one) and dynamic dimensions.
  friend bool operator==(const Shape& a, const Shape& b);
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  PrimitiveType element_type_ = PRIMITIVE_TYPE_INVALID;
  std::vector<int64_t> dimensions_;
  std::vector<bool> dynamic_;  // empty when every dimension is static
  std::vector<Shape> tuple_shapes_;
  std::optional<Layout> layout_;
};

}  // namespace systolic
