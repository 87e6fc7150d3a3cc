#include "core/eval/shape_ops.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/eval/array_view.h"
#include "core/eval/strided_copy.h"
#include "core/hlo/element_convert.h"

namespace systolic::eval {
namespace {

int64_t ByteWidth(const Literal& l) { return primitive_util::ByteWidth(l.element_type()); }

absl::Status ExpectArray(const Literal& l, absl::string_view what) {
  if (!l.shape().IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " needs an array, got ", l.shape().ToString()));
  }
  return absl::OkStatus();
}

Literal ArrayLike(const Literal& operand, absl::Span<const int64_t> dims) {
  return Literal(Shape(operand.element_type(), dims));
}

}  // namespace

Literal ZeroLiteral(const Shape& shape) { return Literal(shape); }

absl::StatusOr<Literal> MaterializeView(const Literal& source, const ArrayView& view) {
  Literal out = ArrayLike(source, view.dims);
  StridedCopy(view.dims, source.untyped_data(), view.offset, view.strides, out.untyped_data(), 0,
              RowMajorStrides(view.dims), ByteWidth(source));
  return out;
}

absl::StatusOr<Literal> Broadcast(const Literal& operand, absl::Span<const int64_t> output_dims,
                                  absl::Span<const int64_t> dimensions) {
  if (auto s = ExpectArray(operand, "broadcast"); !s.ok()) return s;
  auto view = BroadcastView(operand.shape().dimensions(), output_dims, dimensions);
  if (!view.ok()) return view.status();
  return MaterializeView(operand, *view);
}

absl::StatusOr<Literal> Reshape(const Literal& operand, absl::Span<const int64_t> output_dims) {
  if (auto s = ExpectArray(operand, "reshape"); !s.ok()) return s;
  return operand.Reshape(output_dims);
}

absl::StatusOr<Literal> Transpose(const Literal& operand, absl::Span<const int64_t> permutation) {
  if (auto s = ExpectArray(operand, "transpose"); !s.ok()) return s;
  auto view = TransposeView(operand.shape().dimensions(), permutation);
  if (!view.ok()) return view.status();
  return MaterializeView(operand, *view);
}

absl::StatusOr<Literal> Slice(const Literal& operand, absl::Span<const int64_t> starts,
                              absl::Span<const int64_t> limits, absl::Span<const int64_t> strides) {
  if (auto s = ExpectArray(operand, "slice"); !s.ok()) return s;
  auto view = SliceView(operand.shape().dimensions(), starts, limits, strides);
  if (!view.ok()) return view.status();
  return MaterializeView(operand, *view);
}

absl::StatusOr<Literal> Reverse(const Literal& operand, absl::Span<const int64_t> dimensions) {
  if (auto s = ExpectArray(operand, "reverse"); !s.ok()) return s;
  auto view = ReverseView(operand.shape().dimensions(), dimensions);
  if (!view.ok()) return view.status();
  return MaterializeView(operand, *view);
}

absl::StatusOr<Literal> Concatenate(absl::Span<const Literal* const> operands, int64_t dimension) {
  if (operands.empty()) return absl::InvalidArgumentError("concatenate needs operands");
  for (const Literal* l : operands) {
    if (auto s = ExpectArray(*l, "concatenate"); !s.ok()) return s;
  }
  const Literal& first = *operands[0];
  const int64_t rank = first.shape().rank();
  if (dimension < 0 || dimension >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("concatenate dimension ", dimension,
                                                   " is out of range for rank ", rank));
  }
  std::vector<int64_t> dims = first.shape().dimensions();
  dims[dimension] = 0;
  for (const Literal* l : operands) {
    if (l->element_type() != first.element_type() || l->shape().rank() != rank) {
      return absl::InvalidArgumentError("concatenate operands differ in type or rank");
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dimension && l->shape().dimensions(d) != first.shape().dimensions(d)) {
        return absl::InvalidArgumentError(absl::StrCat("concatenate: ", l->shape().ToString(),
                                                       " does not match ", first.shape().ToString()));
      }
    }
    dims[dimension] += l->shape().dimensions(dimension);
  }
  Literal out = ArrayLike(first, dims);
  std::vector<int64_t> out_strides = RowMajorStrides(dims);
  int64_t offset = 0;
  for (const Literal* l : operands) {
    StridedCopy(l->shape().dimensions(), l->untyped_data(), 0,
                RowMajorStrides(l->shape().dimensions()), out.untyped_data(),
                offset * out_strides[dimension], out_strides, ByteWidth(first));
    offset += l->shape().dimensions(dimension);
  }
  return out;
}

absl::StatusOr<Literal> Pad(const Literal& operand, const Literal& padding_value,
                            const PaddingConfig& config) {
  if (auto s = ExpectArray(operand, "pad"); !s.ok()) return s;
  const int64_t rank = operand.shape().rank();
  if (int64_t(config.dimensions.size()) != rank || padding_value.element_count() != 1 ||
      padding_value.element_type() != operand.element_type()) {
    return absl::InvalidArgumentError("pad: the padding config or value does not fit the operand");
  }
  std::vector<int64_t> out_dims(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const PaddingDimension& p = config.dimensions[d];
    const int64_t n = operand.shape().dimensions(d);
    if (p.interior_padding < 0) {
      return absl::InvalidArgumentError("pad: interior padding must not be negative");
    }
    out_dims[d] = p.edge_padding_low + p.edge_padding_high + n +
                  std::max<int64_t>(n - 1, 0) * p.interior_padding;
    if (out_dims[d] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("pad: dimension ", d, " would have negative size ", out_dims[d]));
    }
  }
  Literal out = ArrayLike(operand, out_dims);
  const int64_t width = ByteWidth(operand);
  FillElements(out.untyped_data(), padding_value.untyped_data(), out.element_count(), width);
  // The operand elements that land inside the output (negative edges crop).
  std::vector<int64_t> in_strides = RowMajorStrides(operand.shape().dimensions());
  std::vector<int64_t> out_strides = RowMajorStrides(out_dims);
  std::vector<int64_t> dims(rank), src_strides(rank), dst_strides(rank);
  int64_t src_offset = 0, dst_offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const PaddingDimension& p = config.dimensions[d];
    const int64_t step = p.interior_padding + 1;
    const int64_t n = operand.shape().dimensions(d);
    // First i with low + i * step >= 0, last with low + i * step < out.
    int64_t first = p.edge_padding_low >= 0 ? 0 : (-p.edge_padding_low + step - 1) / step;
    int64_t last = out_dims[d] - 1 - p.edge_padding_low < 0
                       ? -1
                       : std::min(n - 1, (out_dims[d] - 1 - p.edge_padding_low) / step);
    if (last < first) return out;
    dims[d] = last - first + 1;
    src_offset += first * in_strides[d];
    src_strides[d] = in_strides[d];
    dst_offset += (p.edge_padding_low + first * step) * out_strides[d];
    dst_strides[d] = step * out_strides[d];
  }
  StridedCopy(dims, operand.untyped_data(), src_offset, src_strides, out.untyped_data(), dst_offset,
              dst_strides, width);
  return out;
}

absl::StatusOr<Literal> Iota(const Shape& shape, int64_t dimension) {
  if (!shape.IsArray() || dimension < 0 || dimension >= shape.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("iota dimension ", dimension, " does not fit ", shape.ToString()));
  }
  // The line broadcast along `dimension`.
  const std::vector<int64_t> along = {dimension};
  return Broadcast(IotaLine(shape.element_type(), shape.dimensions(dimension)), shape.dimensions(),
                   along);
}

Literal IotaLine(PrimitiveType type, int64_t n) {
  Literal line(Shape(type, {n}));
  ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::Native;
    auto data = line.data<T>();
    for (int64_t i = 0; i < n; ++i) data[i] = ConvertElement<T>(i);
  });
  return line;
}

absl::StatusOr<std::vector<int64_t>> ReadStartIndices(absl::Span<const Literal* const> indices,
                                                      int64_t rank) {
  std::vector<int64_t> starts;
  if (indices.size() == 1 && indices[0]->shape().rank() == 1 && rank != 1) {
    const Literal& vector = *indices[0];
    for (int64_t i = 0; i < vector.element_count(); ++i) starts.push_back(vector.GetAsInt64(i));
  } else if (indices.size() == 1 && indices[0]->shape().rank() == 1 && rank == 1 &&
             indices[0]->element_count() == 1) {
    starts.push_back(indices[0]->GetAsInt64(0));
  } else {
    for (const Literal* index : indices) {
      if (index->element_count() != 1 || !primitive_util::IsIntegralType(index->element_type())) {
        return absl::InvalidArgumentError(
            absl::StrCat("start indices must be integer scalars, got ", index->shape().ToString()));
      }
      starts.push_back(index->GetAsInt64(0));
    }
  }
  if (int64_t(starts.size()) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("got ", starts.size(), " start indices for rank ", rank));
  }
  return starts;
}

absl::StatusOr<Literal> DynamicSlice(const Literal& operand, absl::Span<const int64_t> starts,
                                     absl::Span<const int64_t> sizes) {
  if (auto s = ExpectArray(operand, "dynamic-slice"); !s.ok()) return s;
  const int64_t rank = operand.shape().rank();
  if (int64_t(starts.size()) != rank || int64_t(sizes.size()) != rank) {
    return absl::InvalidArgumentError("dynamic-slice: starts and sizes must match the rank");
  }
  std::vector<int64_t> op_strides = RowMajorStrides(operand.shape().dimensions());
  int64_t offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t n = operand.shape().dimensions(d);
    if (sizes[d] < 0 || sizes[d] > n) {
      return absl::InvalidArgumentError(absl::StrCat("dynamic-slice size ", sizes[d],
                                                     " exceeds dimension ", d, " of ",
                                                     operand.shape().ToString()));
    }
    offset += std::clamp<int64_t>(starts[d], 0, n - sizes[d]) * op_strides[d];
  }
  Literal out = ArrayLike(operand, sizes);
  StridedCopy(sizes, operand.untyped_data(), offset, op_strides, out.untyped_data(), 0,
              RowMajorStrides(sizes), ByteWidth(operand));
  return out;
}

absl::StatusOr<Literal> DynamicUpdateSlice(const Literal& operand, const Literal& update,
                                           absl::Span<const int64_t> starts) {
  if (auto s = ExpectArray(operand, "dynamic-update-slice"); !s.ok()) return s;
  const int64_t rank = operand.shape().rank();
  if (int64_t(starts.size()) != rank || update.shape().rank() != rank ||
      update.element_type() != operand.element_type()) {
    return absl::InvalidArgumentError("dynamic-update-slice: the update does not fit the operand");
  }
  Literal out = operand.Clone();
  std::vector<int64_t> out_strides = RowMajorStrides(operand.shape().dimensions());
  int64_t offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t n = operand.shape().dimensions(d), u = update.shape().dimensions(d);
    if (u > n) {
      return absl::InvalidArgumentError(absl::StrCat("dynamic-update-slice: the update ",
                                                     update.shape().ToString(), " exceeds ",
                                                     operand.shape().ToString()));
    }
    offset += std::clamp<int64_t>(starts[d], 0, n - u) * out_strides[d];
  }
  StridedCopy(update.shape().dimensions(), update.untyped_data(), 0,
              RowMajorStrides(update.shape().dimensions()), out.untyped_data(), offset, out_strides,
              ByteWidth(operand));
  return out;
}

namespace {

// Major-to-minor order of a shape's dimensions (row-major without a layout).
std::vector<int64_t> MajorToMinor(const Shape& shape) {
  std::vector<int64_t> order(shape.rank());
  if (shape.has_layout() && int64_t(shape.layout().minor_to_major().size()) == shape.rank()) {
    const auto& m2m = shape.layout().minor_to_major();
    std::reverse_copy(m2m.begin(), m2m.end(), order.begin());
  } else {
    std::iota(order.begin(), order.end(), 0);
  }
  return order;
}

bool IsIdentity(const std::vector<int64_t>& p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != int64_t(i)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<Literal> Bitcast(const Literal& operand, const Shape& operand_shape,
                                const Shape& shape) {
  if (auto s = ExpectArray(operand, "bitcast"); !s.ok()) return s;
  if (!shape.IsArray() ||
      primitive_util::ByteWidth(shape.element_type()) != ByteWidth(operand) ||
      shape.num_elements() != operand.element_count()) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast from ", operand_shape.ToString(true),
                                                   " to ", shape.ToString(true),
                                                   " changes the buffer size"));
  }
  // Physical order of the operand: its dimensions major to minor.
  std::vector<int64_t> in_order = MajorToMinor(operand_shape);
  absl::StatusOr<Literal> physical =
      IsIdentity(in_order) ? operand.Clone() : Transpose(operand, in_order);
  if (!physical.ok()) return physical.status();
  std::vector<int64_t> out_order = MajorToMinor(shape);
  std::vector<int64_t> physical_dims(shape.rank());
  for (int64_t k = 0; k < shape.rank(); ++k) physical_dims[k] = shape.dimensions(out_order[k]);
  Literal buffer(Shape(shape.element_type(), physical_dims));
  std::memcpy(buffer.untyped_data(), physical->untyped_data(), size_t(buffer.size_bytes()));
  if (IsIdentity(out_order)) return buffer;
  // Logical output dimension j is physical dimension k where out_order[k] == j.
  std::vector<int64_t> inverse(shape.rank());
  for (int64_t k = 0; k < shape.rank(); ++k) inverse[out_order[k]] = k;
  return Transpose(buffer, inverse);
}

namespace {

// Reads / writes the raw bits of element i of a dense buffer of `type`.
uint64_t ReadBits(const uint8_t* data, PrimitiveType type, int64_t i) {
  const int bits = primitive_util::BitWidth(type);
  if (primitive_util::IsSubByteType(type)) return data[i] & ((1u << bits) - 1);
  uint64_t v = 0;
  std::memcpy(&v, data + i * (bits / 8), size_t(bits / 8));
  return v;
}

void WriteBits(uint8_t* data, PrimitiveType type, int64_t i, uint64_t v) {
  const int bits = primitive_util::BitWidth(type);
  if (primitive_util::IsSubByteType(type)) {
    uint8_t b = uint8_t(v & ((1u << bits) - 1));
    // Signed sub-byte integers are stored sign-extended.
    if (primitive_util::IsSignedIntegralType(type) && (b >> (bits - 1))) b |= uint8_t(0xFF << bits);
    data[i] = b;
    return;
  }
  std::memcpy(data + i * (bits / 8), &v, size_t(bits / 8));
}

}  // namespace

absl::StatusOr<Literal> BitcastConvert(const Literal& operand, const Shape& shape) {
  if (auto s = ExpectArray(operand, "bitcast-convert"); !s.ok()) return s;
  const PrimitiveType from = operand.element_type(), to = shape.element_type();
  const int64_t in_bits = primitive_util::BitWidth(from) * operand.element_count();
  const int64_t out_bits = primitive_util::BitWidth(to) * shape.num_elements();
  if (!shape.IsArray() || in_bits != out_bits) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast-convert from ",
                                                   operand.shape().ToString(), " to ",
                                                   shape.ToString(), " changes the number of bits"));
  }
  Literal out(Shape(to, shape.dimensions()));
  const uint8_t* src = static_cast<const uint8_t*>(operand.untyped_data());
  uint8_t* dst = static_cast<uint8_t*>(out.untyped_data());
  if (!primitive_util::IsSubByteType(from) && !primitive_util::IsSubByteType(to)) {
    std::memcpy(dst, src, size_t(out.size_bytes()));
  } else if (primitive_util::BitWidth(to) >= primitive_util::BitWidth(from)) {
    // Several narrow inputs make one output element.
    const int in_width = primitive_util::BitWidth(from);
    const int64_t per = primitive_util::BitWidth(to) / in_width;
    for (int64_t j = 0; j < out.element_count(); ++j) {
      uint64_t v = 0;
      for (int64_t k = 0; k < per; ++k) v |= ReadBits(src, from, j * per + k) << (k * in_width);
      WriteBits(dst, to, j, v);
    }
  } else {
    const int out_width = primitive_util::BitWidth(to);
    const int64_t per = primitive_util::BitWidth(from) / out_width;
    const uint64_t mask = (uint64_t{1} << out_width) - 1;
    for (int64_t i = 0; i < operand.element_count(); ++i) {
      uint64_t v = ReadBits(src, from, i);
      for (int64_t k = 0; k < per; ++k) WriteBits(dst, to, i * per + k, (v >> (k * out_width)) & mask);
    }
  }
  if (to == PRED) {
    // A bool holds 0 or 1.
    for (int64_t i = 0; i < out.element_count(); ++i) dst[i] = dst[i] != 0;
  }
  return out;
}

}  // namespace systolic::eval
