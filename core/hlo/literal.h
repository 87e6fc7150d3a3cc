// Host values of any shape and type: an array stored densely in row-major
// order (the shape's layout only describes device placement), or a tuple of
// literals. Move-only; Clone() copies explicitly.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/host_buffer_allocator.h"
#include "core/hlo/native_type.h"
#include "core/hlo/shape.h"

namespace systolic {

class Literal {
 public:
  // The empty tuple.
  Literal();
  // A zero-filled literal of `shape` (tuples are built element by element).
  explicit Literal(const Shape& shape);
  // A literal of `shape` whose array bytes are left unset, for a result the
  // caller overwrites whole: it saves writing every byte twice.
  static Literal CreateUninitialized(const Shape& shape);

  Literal(Literal&&) noexcept = default;
  Literal& operator=(Literal&&) noexcept = default;
  Literal(const Literal&) = delete;
  Literal& operator=(const Literal&) = delete;
  Literal Clone() const;

  const Shape& shape() const { return shape_; }
  PrimitiveType element_type() const { return shape_.element_type(); }
  int64_t element_count() const { return shape_.IsArray() ? shape_.num_elements() : 0; }

  // --- Arrays ---
  template <typename T>
  absl::Span<const T> data() const {
    return absl::Span<const T>(reinterpret_cast<const T*>(buffer_.data()), element_count());
  }
  template <typename T>
  absl::Span<T> data() {
    return absl::Span<T>(reinterpret_cast<T*>(buffer_.data()), element_count());
  }
  const void* untyped_data() const { return buffer_.data(); }
  void* untyped_data() { return buffer_.data(); }
  int64_t size_bytes() const { return int64_t(buffer_.size()); }

  // Row-major linear index of a multi-dimensional index.
  int64_t LinearIndex(absl::Span<const int64_t> index) const;

  template <typename T>
  T Get(absl::Span<const int64_t> index) const {
    return data<T>()[LinearIndex(index)];
  }
  template <typename T>
  void Set(absl::Span<const int64_t> index, T value) {
    data<T>()[LinearIndex(index)] = value;
  }
  template <typename T>
  T GetFirstElement() const {
    return data<T>()[0];
  }

  // Type-erased element access by linear index, converting as C++ would.
  double GetAsDouble(int64_t linear_index) const;
  complex128 GetAsComplex128(int64_t linear_index) const;
  int64_t GetAsInt64(int64_t linear_index) const;
  void SetFromDouble(int64_t linear_index, double value);
  void SetFromComplex128(int64_t linear_index, complex128 value);
  void SetFromInt64(int64_t linear_index, int64_t value);
  // True when the element is the scalar zero / one of its type.
  bool IsZero(int64_t linear_index) const;
  // True if every element equals the first.
  bool IsAllSame() const;

  // --- Tuples ---
  int64_t tuple_size() const { return int64_t(elements_.size()); }
  const Literal& tuple_element(int64_t i) const { return elements_[i]; }
  Literal& tuple_element(int64_t i) { return elements_[i]; }
  static Literal MakeTuple(std::vector<Literal> elements);
  template <typename... Literals>
  static Literal MakeTupleOwned(Literals&&... elements) {
    std::vector<Literal> v;
    (v.push_back(std::move(elements)), ...);
    return MakeTuple(std::move(v));
  }
  std::vector<Literal> DecomposeTuple() &&;
  // The sub-literal at a ShapeIndex path of tuple indices.
  const Literal& at(absl::Span<const int64_t> shape_index) const;
  Literal& at(absl::Span<const int64_t> shape_index);

  // --- Creation ---
  template <typename T>
  static Literal CreateR0(T value) {
    Literal l(Shape(NativeToPrimitiveType<T>(), {}));
    l.data<T>()[0] = value;
    return l;
  }
  template <typename T>
  static Literal CreateR1(absl::Span<const T> values) {
    Literal l(Shape(NativeToPrimitiveType<T>(), {int64_t(values.size())}));
    std::copy(values.begin(), values.end(), l.data<T>().begin());
    return l;
  }
  template <typename T>
  static Literal CreateR1(std::initializer_list<T> values) {
    return CreateR1<T>(absl::Span<const T>(values.begin(), values.size()));
  }
  template <typename T>
  static Literal CreateR2(std::initializer_list<std::initializer_list<T>> rows) {
    int64_t cols = rows.size() ? int64_t(rows.begin()->size()) : 0;
    Literal l(Shape(NativeToPrimitiveType<T>(), {int64_t(rows.size()), cols}));
    int64_t i = 0;
    for (const auto& row : rows) {
      for (const T& v : row) l.data<T>()[i++] = v;
    }
    return l;
  }
  // An array of `shape` whose elements are given in row-major order.
  template <typename T>
  static Literal CreateFromVector(const Shape& shape, absl::Span<const T> values) {
    Literal l(shape);
    std::copy(values.begin(), values.end(), l.data<T>().begin());
    return l;
  }
  static Literal Zero(PrimitiveType type) { return Literal(Shape(type, {})); }
  static Literal One(PrimitiveType type);

  // --- Transformations ---
  absl::StatusOr<Literal> Convert(PrimitiveType to) const;
  // Same elements in row-major order, new dimensions.
  absl::StatusOr<Literal> Reshape(absl::Span<const int64_t> dimensions) const;
  // A literal of `shape` with every element equal to this scalar.
  absl::StatusOr<Literal> Broadcast(const Shape& shape) const;

  // --- Printing ---
  // XLA's format: `f32[2,2] {\n  { 1, 2 },\n  { 3, 4 }\n}` / `(f32[], s32[]) (...)`.
  std::string ToString() const;
  // The value only, on one line, as HLO constants print it: `{ {1, 2}, {3, 4} }`.
  std::string ToStringWithoutShape() const;
  // One element, as printed in HLO text.
  std::string ElementToString(int64_t linear_index) const;

  // Exact equality of shape (ignoring layouts) and bits of every element,
  // except that NaNs compare equal to NaNs.
  friend bool operator==(const Literal& a, const Literal& b);
  friend bool operator!=(const Literal& a, const Literal& b) { return !(a == b); }

 private:
  Shape shape_;
  std::vector<uint8_t, HostBufferAllocator<uint8_t>> buffer_;
  std::vector<Literal> elements_;
};

// Shortest decimal text that reads back to the same value of the type.
std::string RoundTripFloatToString(double value, PrimitiveType type);

}  // namespace systolic
