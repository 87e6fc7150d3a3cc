#include "core/hlo/shape.h"

#include "absl/strings/str_cat.h"

namespace systolic {

Shape::Shape(PrimitiveType element_type, absl::Span<const int64_t> dimensions)
    : element_type_(element_type), dimensions_(dimensions.begin(), dimensions.end()) {}

Shape Shape::MakeTuple(std::vector<Shape> elements) {
  Shape s;
  s.element_type_ = TUPLE;
  s.tuple_shapes_ = std::move(elements);
  return s;
}

Shape Shape::MakeToken() {
  Shape s;
  s.element_type_ = TOKEN;
  return s;
}

Shape Shape::MakeOpaque() {
  Shape s;
  s.element_type_ = OPAQUE_TYPE;
  return s;
}

void Shape::add_dimensions(int64_t size, bool dynamic) {
  dimensions_.push_back(size);
  if (dynamic || !dynamic_.empty()) {
    dynamic_.resize(dimensions_.size(), false);
    dynamic_.back() = dynamic;
  }
}

void Shape::DeleteDimension(int64_t i) {
  dimensions_.erase(dimensions_.begin() + i);
  if (!dynamic_.empty()) dynamic_.erase(dynamic_.begin() + i);
  if (layout_) {
    auto& m2m = *layout_->mutable_minor_to_major();
    std::vector<int64_t> updated;
    for (int64_t d : m2m) {
      if (d == i) continue;
      updated.push_back(d > i ? d - 1 : d);
    }
    m2m = std::move(updated);
  }
}

void Shape::set_dynamic_dimension(int64_t i, bool dynamic) {
  if (dynamic_.empty()) {
    if (!dynamic) return;
    dynamic_.resize(dimensions_.size(), false);
  }
  dynamic_[i] = dynamic;
}

bool Shape::is_static() const {
  if (IsTuple()) {
    for (const Shape& s : tuple_shapes_) {
      if (!s.is_static()) return false;
    }
    return true;
  }
  for (bool d : dynamic_) {
    if (d) return false;
  }
  return true;
}

bool Shape::is_unbounded_dynamic() const {
  for (int64_t d : dimensions_) {
    if (d == kUnboundedSize) return true;
  }
  return false;
}

const Layout& Shape::layout() const {
  static const Layout* kEmpty = new Layout();
  return layout_ ? *layout_ : *kEmpty;
}

Layout* Shape::mutable_layout() {
  if (!layout_) layout_ = Layout::Descending(rank());
  return &*layout_;
}

void Shape::ClearLayoutsRecursively() {
  layout_.reset();
  for (Shape& s : tuple_shapes_) s.ClearLayoutsRecursively();
}

int64_t Shape::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dimensions_) n *= d;
  return n;
}

std::string Shape::ToString(bool print_layout) const {
  std::string out;
  AppendTo(&out, print_layout);
  return out;
}

void Shape::AppendTo(std::string* out, bool print_layout) const {
  if (IsTuple()) {
    *out += '(';
    for (size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (i) *out += ", ";
      tuple_shapes_[i].AppendTo(out, print_layout);
    }
    *out += ')';
    return;
  }
  absl::StrAppend(out, primitive_util::LowercasePrimitiveTypeName(element_type_));
  if (!IsArray()) {
    *out += "[]";  // token[] / opaque[]
    return;
  }
  *out += '[';
  for (size_t i = 0; i < dimensions_.size(); ++i) {
    if (i) *out += ',';
    if (dimensions_[i] == kUnboundedSize) {
      *out += '?';
      continue;
    }
    if (is_dynamic_dimension(i)) *out += "<=";
    absl::StrAppend(out, dimensions_[i]);
  }
  *out += ']';
  // A scalar's layout is printed only when it says more than `{}`.
  if (print_layout && layout_ && !(dimensions_.empty() && *layout_ == Layout())) {
    layout_->AppendTo(out);
  }
}

bool operator==(const Shape& a, const Shape& b) {
  if (a.element_type_ != b.element_type_) return false;
  if (a.IsTuple()) return a.tuple_shapes_ == b.tuple_shapes_;
  if (a.dimensions_ != b.dimensions_) return false;
  for (int64_t i = 0; i < a.rank(); ++i) {
    if (a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) return false;
  }
  if (a.layout_ && b.layout_ && !(*a.layout_ == *b.layout_)) return false;
  return true;
}

}  // namespace systolic
