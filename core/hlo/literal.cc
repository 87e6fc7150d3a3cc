#include "core/hlo/literal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/element_convert.h"
#include "core/hlo/literal_text.h"

namespace systolic {

Literal::Literal() : shape_(Shape::MakeTuple({})) {}

namespace {

void ZeroFill(Literal& literal) {
  if (literal.size_bytes() > 0) std::memset(literal.untyped_data(), 0, size_t(literal.size_bytes()));
  for (int64_t i = 0; i < literal.tuple_size(); ++i) ZeroFill(literal.tuple_element(i));
}

}  // namespace

Literal::Literal(const Shape& shape) : Literal(CreateUninitialized(shape)) { ZeroFill(*this); }

Literal Literal::CreateUninitialized(const Shape& shape) {
  Literal literal;
  literal.shape_ = shape;
  if (shape.IsTuple()) {
    literal.elements_.reserve(shape.tuple_shapes_size());
    for (const Shape& s : shape.tuple_shapes()) literal.elements_.push_back(CreateUninitialized(s));
  } else if (shape.IsArray()) {
    // resize() default-initialises through HostBufferAllocator: no writes.
    literal.buffer_.resize(size_t(shape.num_elements()) *
                           primitive_util::ByteWidth(shape.element_type()));
  }
  return literal;
}

Literal Literal::Clone() const {
  Literal copy;
  copy.shape_ = shape_;
  copy.buffer_ = buffer_;
  copy.elements_.reserve(elements_.size());
  for (const Literal& e : elements_) copy.elements_.push_back(e.Clone());
  return copy;
}

int64_t Literal::LinearIndex(absl::Span<const int64_t> index) const {
  int64_t linear = 0;
  for (int64_t i = 0; i < shape_.rank(); ++i) linear = linear * shape_.dimensions(i) + index[i];
  return linear;
}

double Literal::GetAsDouble(int64_t i) const {
  return ArrayTypeSwitch(element_type(), [&](auto tag) -> double {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsComplex<T>) {
      return data<T>()[i].real();
    } else {
      return static_cast<double>(static_cast<WideType<T>>(data<T>()[i]));
    }
  });
}

complex128 Literal::GetAsComplex128(int64_t i) const {
  return ArrayTypeSwitch(element_type(), [&](auto tag) -> complex128 {
    using T = typename decltype(tag)::Native;
    return ConvertElement<complex128>(data<T>()[i]);
  });
}

int64_t Literal::GetAsInt64(int64_t i) const {
  return ArrayTypeSwitch(element_type(), [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsIntegral<T> || std::is_same_v<T, bool>) {
      return static_cast<int64_t>(static_cast<WideType<T>>(data<T>()[i]));
    } else {
      return ConvertElement<int64_t>(data<T>()[i]);
    }
  });
}

void Literal::SetFromDouble(int64_t i, double value) {
  ArrayTypeSwitch(element_type(), [&](auto tag) {
    using T = typename decltype(tag)::Native;
    data<T>()[i] = ConvertElement<T>(value);
  });
}

void Literal::SetFromComplex128(int64_t i, complex128 value) {
  ArrayTypeSwitch(element_type(), [&](auto tag) {
    using T = typename decltype(tag)::Native;
    data<T>()[i] = ConvertElement<T>(value);
  });
}

void Literal::SetFromInt64(int64_t i, int64_t value) {
  ArrayTypeSwitch(element_type(), [&](auto tag) {
    using T = typename decltype(tag)::Native;
    data<T>()[i] = ConvertElement<T>(value);
  });
}

bool Literal::IsZero(int64_t i) const {
  return ArrayTypeSwitch(element_type(), [&](auto tag) -> bool {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsComplex<T>) {
      return data<T>()[i] == T(0);
    } else {
      return static_cast<WideType<T>>(data<T>()[i]) == WideType<T>(0);
    }
  });
}

bool Literal::IsAllSame() const {
  if (!shape_.IsArray()) return false;
  int64_t width = primitive_util::ByteWidth(element_type());
  for (int64_t i = 1; i < element_count(); ++i) {
    if (std::memcmp(buffer_.data(), buffer_.data() + i * width, width) != 0) return false;
  }
  return true;
}

Literal Literal::MakeTuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const Literal& e : elements) shapes.push_back(e.shape());
  Literal l;
  l.shape_ = Shape::MakeTuple(std::move(shapes));
  l.elements_ = std::move(elements);
  return l;
}

std::vector<Literal> Literal::DecomposeTuple() && {
  std::vector<Literal> out = std::move(elements_);
  elements_.clear();
  shape_ = Shape::MakeTuple({});
  return out;
}

const Literal& Literal::at(absl::Span<const int64_t> shape_index) const {
  const Literal* l = this;
  for (int64_t i : shape_index) l = &l->elements_[i];
  return *l;
}

Literal& Literal::at(absl::Span<const int64_t> shape_index) {
  Literal* l = this;
  for (int64_t i : shape_index) l = &l->elements_[i];
  return *l;
}

Literal Literal::One(PrimitiveType type) {
  Literal l(Shape(type, {}));
  l.SetFromDouble(0, 1.0);
  return l;
}

absl::StatusOr<Literal> Literal::Convert(PrimitiveType to) const {
  if (shape_.IsTuple()) {
    std::vector<Literal> converted;
    for (const Literal& e : elements_) {
      auto c = e.Convert(to);
      if (!c.ok()) return c.status();
      converted.push_back(*std::move(c));
    }
    return MakeTuple(std::move(converted));
  }
  if (!shape_.IsArray() || !primitive_util::IsArrayType(to)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot convert ", shape_.ToString(), " to ",
                     primitive_util::LowercasePrimitiveTypeName(to)));
  }
  Shape out_shape = shape_;
  out_shape.set_element_type(to);
  Literal out(out_shape);
  ArrayTypeSwitch(element_type(), [&](auto from_tag) {
    using From = typename decltype(from_tag)::Native;
    ArrayTypeSwitch(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::Native;
      auto src = data<From>();
      auto dst = out.data<To>();
      for (int64_t i = 0; i < int64_t(src.size()); ++i) dst[i] = ConvertElement<To>(src[i]);
    });
  });
  return out;
}

absl::StatusOr<Literal> Literal::Reshape(absl::Span<const int64_t> dimensions) const {
  Shape s(element_type(), dimensions);
  if (!shape_.IsArray() || s.num_elements() != element_count()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot reshape ", shape_.ToString(), " to ",
                                                   s.ToString()));
  }
  Literal out;
  out.shape_ = std::move(s);
  out.buffer_ = buffer_;
  return out;
}

absl::StatusOr<Literal> Literal::Broadcast(const Shape& shape) const {
  if (!shape_.IsScalar() || shape.element_type() != element_type()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot broadcast ", shape_.ToString(), " to ", shape.ToString()));
  }
  Literal out = CreateUninitialized(shape);  // every element is written below
  int64_t width = primitive_util::ByteWidth(element_type());
  for (int64_t i = 0; i < out.element_count(); ++i) {
    std::memcpy(out.buffer_.data() + i * width, buffer_.data(), width);
  }
  return out;
}

namespace {

// Shortest text of `value` for an array of `type`, written at `out` (64
// bytes are enough); returns the end. The parser reads it back bit for bit.
char* WriteRoundTripFloat(char* out, char* end, double value, PrimitiveType type) {
  auto put = [&](absl::string_view s) {
    std::memcpy(out, s.data(), s.size());
    return out + s.size();
  };
  if (std::isnan(value)) return put(std::signbit(value) ? "-nan" : "nan");
  if (std::isinf(value)) return put(value < 0 ? "-inf" : "inf");
  if (type == F64 || type == C128) return std::to_chars(out, end, value).ptr;
  if (type == F32 || type == C64) return std::to_chars(out, end, static_cast<float>(value)).ptr;
  // Narrow floats (bf16, f16, f8, ...) hold few digits: the fewest
  // significant digits of the value as a float that read back, the way the
  // parser reads them (decimal -> double -> float -> narrow), to the same
  // narrow value. Every narrow value is exact as a float.
  const float f = static_cast<float>(value);
  return ArrayTypeSwitch(type, [&](auto tag) -> char* {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsFloat<T> && !std::is_same_v<T, float> && !std::is_same_v<T, double>) {
      const T narrow(f);
      for (int precision = 1; precision <= 9; ++precision) {
        char* p = std::to_chars(out, end, f, std::chars_format::general, precision).ptr;
        double parsed = 0;
        std::from_chars(out, p, parsed);
        const T back(static_cast<float>(parsed));
        if (std::memcmp(&back, &narrow, sizeof(T)) == 0) return p;
      }
    }
    // The shortest text of the float (never reached for today's narrow
    // types, whose values all read back with at most 9 digits).
    return std::to_chars(out, end, f).ptr;
  });
}

}  // namespace

std::string RoundTripFloatToString(double value, PrimitiveType type) {
  char buffer[64];
  return std::string(buffer, WriteRoundTripFloat(buffer, buffer + sizeof(buffer), value, type));
}

std::string Literal::ElementToString(int64_t i) const {
  PrimitiveType type = element_type();
  if (type == PRED) return data<bool>()[i] ? "true" : "false";
  if (primitive_util::IsComplexType(type)) {
    complex128 c = GetAsComplex128(i);
    return absl::StrCat("(", RoundTripFloatToString(c.real(), type), ", ",
                        RoundTripFloatToString(c.imag(), type), ")");
  }
  if (primitive_util::IsFloatingPointType(type)) {
    return RoundTripFloatToString(GetAsDouble(i), type);
  }
  if (primitive_util::IsUnsignedIntegralType(type)) {
    return absl::StrCat(static_cast<uint64_t>(GetAsInt64(i)));
  }
  return absl::StrCat(GetAsInt64(i));
}

namespace {

// Writes the nested braces of dimensions [dim, rank) of an array at `p`,
// element `*linear` on; `one(p, i)` writes element i at p and returns the end.
template <typename WriteOne>
char* WriteNested(const Shape& s, int64_t dim, int64_t* linear, char* p, const WriteOne& one) {
  *p++ = '{';
  const int64_t n = s.dimensions(dim);
  const bool innermost = dim + 1 == s.rank();
  for (int64_t i = 0; i < n; ++i) {
    if (i) {
      *p++ = ',';
      *p++ = ' ';
    }
    p = innermost ? one(p, (*linear)++) : WriteNested(s, dim + 1, linear, p, one);
  }
  *p++ = '}';
  return p;
}

// Appends the array `literal` (rank > 0) with WriteNested: the room for the
// longest text, `max_element` characters an element, is made once and
// written in place, then cut to what was written.
template <typename WriteOne>
void AppendArray(const Literal& literal, size_t max_element, std::string* out,
                 const WriteOne& one) {
  const Shape& shape = literal.shape();
  // Brace pairs: one per sub-array of every level; each has a separator.
  size_t pairs = 0, rows = 1;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    pairs += rows;
    rows *= size_t(shape.dimensions(d));
  }
  const size_t start = out->size();
  out->resize(start + size_t(literal.element_count()) * (max_element + 2) + pairs * 4);
  int64_t linear = 0;
  char* end = WriteNested(shape, 0, &linear, out->data() + start, one);
  out->resize(size_t(end - out->data()));
}

}  // namespace

std::string Literal::ToStringWithoutShape() const {
  std::string out;
  AppendLiteralText(*this, &out);
  return out;
}

void AppendLiteralText(const Literal& literal, std::string* out) {
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    out->push_back('(');
    for (int64_t i = 0; i < literal.tuple_size(); ++i) {
      if (i) out->append(", ");
      AppendLiteralText(literal.tuple_element(i), out);
    }
    out->push_back(')');
    return;
  }
  if (!shape.IsArray()) {
    out->append(shape.ToString());
    return;
  }
  if (shape.rank() == 0) {
    out->append(literal.ElementToString(0));
    return;
  }
  // One type dispatch for the array, then each element written in place:
  // no string per element.
  const PrimitiveType type = literal.element_type();
  ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::Native;
    const T* values = literal.data<T>().data();
    if constexpr (kIsFloat<T>) {
      // The shortest text of a double is at most 24 characters, of a float
      // (which also holds every narrower type's) 15.
      constexpr size_t kMax = std::is_same_v<T, double> ? 24 : 15;
      AppendArray(literal, kMax, out, [&](char* p, int64_t i) {
        const double v = static_cast<double>(static_cast<WideType<T>>(values[i]));
        return WriteRoundTripFloat(p, p + kMax, v, type);
      });
    } else if constexpr (kIsIntegral<T>) {
      constexpr size_t kMax = 20;  // -9223372036854775808
      AppendArray(literal, kMax, out, [&](char* p, int64_t i) {
        return std::to_chars(p, p + kMax, static_cast<WideType<T>>(values[i])).ptr;
      });
    } else {
      // pred and complex: rare as large constants.
      std::string texts;
      std::vector<size_t> ends;
      for (int64_t i = 0; i < literal.element_count(); ++i) {
        texts += literal.ElementToString(i);
        ends.push_back(texts.size());
      }
      size_t longest = 0;
      for (size_t i = 0; i < ends.size(); ++i) {
        longest = std::max(longest, ends[i] - (i ? ends[i - 1] : 0));
      }
      AppendArray(literal, longest, out, [&](char* p, int64_t i) {
        const size_t from = i ? ends[size_t(i) - 1] : 0;
        std::memcpy(p, texts.data() + from, ends[size_t(i)] - from);
        return p + (ends[size_t(i)] - from);
      });
    }
  });
}

std::string Literal::ToString() const {
  if (shape_.IsTuple()) {
    std::string out = absl::StrCat(shape_.ToString(), " (\n");
    for (size_t i = 0; i < elements_.size(); ++i) {
      out += elements_[i].ToString();
      out += i + 1 < elements_.size() ? ",\n" : "\n";
    }
    return out + ")";
  }
  return absl::StrCat(shape_.ToString(), " ", ToStringWithoutShape());
}

bool operator==(const Literal& a, const Literal& b) {
  if (a.shape_.IsTuple() != b.shape_.IsTuple()) return false;
  if (a.shape_.IsTuple()) return a.elements_ == b.elements_;
  if (a.element_type() != b.element_type() ||
      a.shape_.dimensions() != b.shape_.dimensions()) {
    return false;
  }
  if (a.buffer_ == b.buffer_) return true;
  if (!primitive_util::IsFloatingPointType(a.element_type()) &&
      !primitive_util::IsComplexType(a.element_type())) {
    return false;
  }
  for (int64_t i = 0; i < a.element_count(); ++i) {
    complex128 x = a.GetAsComplex128(i), y = b.GetAsComplex128(i);
    bool x_nan = std::isnan(x.real()) || std::isnan(x.imag());
    bool y_nan = std::isnan(y.real()) || std::isnan(y.imag());
    if (x_nan && y_nan) continue;
    if (x != y || std::signbit(x.real()) != std::signbit(y.real())) return false;
  }
  return true;
}

}  // namespace systolic
