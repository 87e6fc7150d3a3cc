#include "core/lazy/host_split.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace systolic::lazy {

absl::StatusOr<std::vector<Literal>> SplitRows(const Literal& value, int64_t n) {
  const Shape& shape = value.shape();
  if (!shape.IsArray() || shape.rank() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot split ", shape.ToString(), " into rows"));
  }
  if (n <= 0 || shape.dimensions(0) % n != 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot split the ", shape.dimensions(0),
                                                   " rows of ", shape.ToString(), " into ", n,
                                                   " equal parts"));
  }
  Shape piece_shape(shape.element_type(), shape.dimensions());
  piece_shape.set_dimensions(0, shape.dimensions(0) / n);
  const int64_t bytes = value.size_bytes() / n;
  std::vector<Literal> pieces;
  for (int64_t i = 0; i < n; ++i) {
    Literal piece(piece_shape);
    std::memcpy(piece.untyped_data(), static_cast<const char*>(value.untyped_data()) + i * bytes,
                bytes);
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

absl::StatusOr<Literal> ConcatenateRows(absl::Span<const Literal> pieces) {
  if (pieces.empty()) return absl::InvalidArgumentError("nothing to concatenate");
  Shape shape(pieces[0].shape().element_type(), pieces[0].shape().dimensions());
  int64_t rows = 0;
  for (const Literal& p : pieces) {
    if (p.shape().rank() != shape.rank() || p.element_type() != shape.element_type()) {
      return absl::InvalidArgumentError("pieces differ in rank or type");
    }
    rows += p.shape().dimensions(0);
  }
  shape.set_dimensions(0, rows);
  Literal out(shape);
  int64_t offset = 0;
  for (const Literal& p : pieces) {
    std::memcpy(static_cast<char*>(out.untyped_data()) + offset, p.untyped_data(), p.size_bytes());
    offset += p.size_bytes();
  }
  return out;
}

absl::StatusOr<std::vector<Literal>> SplitFlat(const Literal& value, int64_t n) {
  if (!value.shape().IsArray() || n <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot shard ", value.shape().ToString()));
  }
  const int64_t elements = value.element_count();
  const int64_t chunk = (elements + n - 1) / n;
  const int64_t width = primitive_util::ByteWidth(value.element_type());
  std::vector<Literal> chunks;
  for (int64_t i = 0; i < n; ++i) {
    Literal piece(Shape(value.element_type(), {chunk}));
    const int64_t begin = std::min(elements, i * chunk);
    const int64_t end = std::min(elements, (i + 1) * chunk);
    std::memcpy(piece.untyped_data(),
                static_cast<const char*>(value.untyped_data()) + begin * width,
                (end - begin) * width);
    chunks.push_back(std::move(piece));
  }
  return chunks;
}

absl::StatusOr<Literal> JoinFlat(absl::Span<const Literal> chunks, const Shape& shape) {
  Literal out(Shape(shape.element_type(), shape.dimensions()));
  const int64_t width = primitive_util::ByteWidth(shape.element_type());
  int64_t filled = 0;
  const int64_t total = out.element_count();
  for (const Literal& chunk : chunks) {
    if (chunk.element_type() != shape.element_type()) {
      return absl::InvalidArgumentError("chunk of another element type");
    }
    const int64_t take = std::min(total - filled, chunk.element_count());
    std::memcpy(static_cast<char*>(out.untyped_data()) + filled * width, chunk.untyped_data(),
                take * width);
    filled += take;
  }
  if (filled != total) {
    return absl::InvalidArgumentError(absl::StrCat("chunks hold ", filled, " elements, ",
                                                   shape.ToString(), " needs ", total));
  }
  return out;
}

}  // namespace systolic::lazy
