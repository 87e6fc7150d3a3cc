// Data-movement operations on literals, with XLA's semantics (out-of-range
// dynamic indices clamped). Each works on any element type: elements are
// moved as bytes through StridedCopy.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/array_view.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/literal.h"
#include "core/hlo/shape.h"

namespace systolic::eval {

// A literal of `shape` (array, tuple or token) filled with zeros.
Literal ZeroLiteral(const Shape& shape);

// The elements of `view` over `source`, as a dense array.
absl::StatusOr<Literal> MaterializeView(const Literal& source, const ArrayView& view);

// `operand` dimension i becomes output dimension dimensions[i].
absl::StatusOr<Literal> Broadcast(const Literal& operand, absl::Span<const int64_t> output_dims,
                                  absl::Span<const int64_t> dimensions);
absl::StatusOr<Literal> Reshape(const Literal& operand, absl::Span<const int64_t> output_dims);
// Output dimension j is operand dimension permutation[j].
absl::StatusOr<Literal> Transpose(const Literal& operand, absl::Span<const int64_t> permutation);
absl::StatusOr<Literal> Slice(const Literal& operand, absl::Span<const int64_t> starts,
                              absl::Span<const int64_t> limits, absl::Span<const int64_t> strides);
absl::StatusOr<Literal> Reverse(const Literal& operand, absl::Span<const int64_t> dimensions);
absl::StatusOr<Literal> Concatenate(absl::Span<const Literal* const> operands, int64_t dimension);
// Low / high padding may be negative (cropping); interior padding may not.
absl::StatusOr<Literal> Pad(const Literal& operand, const Literal& padding_value,
                            const PaddingConfig& config);
absl::StatusOr<Literal> Iota(const Shape& shape, int64_t dimension);
// 0, 1, ..., n-1 converted to `type`.
Literal IotaLine(PrimitiveType type, int64_t n);

// Start indices as integers from scalar operands or (old form) one rank-1
// operand.
absl::StatusOr<std::vector<int64_t>> ReadStartIndices(absl::Span<const Literal* const> indices,
                                                      int64_t rank);
// Starts are clamped to [0, dim - size] per dimension, as XLA does.
absl::StatusOr<Literal> DynamicSlice(const Literal& operand, absl::Span<const int64_t> starts,
                                     absl::Span<const int64_t> sizes);
absl::StatusOr<Literal> DynamicUpdateSlice(const Literal& operand, const Literal& update,
                                           absl::Span<const int64_t> starts);

// Reinterprets the physical buffer of `operand` (its layout, row-major when it
// has none) as `shape` (its layout likewise): a transpose when the layouts
// differ. Tiles are ignored. The element types must have one byte width.
absl::StatusOr<Literal> Bitcast(const Literal& operand, const Shape& operand_shape,
                                const Shape& shape);
// bitcast-convert, also between widths: the bits of the elements in order,
// little-endian (a narrower result gets a new minor dimension whose index 0
// holds the least significant bits).
absl::StatusOr<Literal> BitcastConvert(const Literal& operand, const Shape& shape);

}  // namespace systolic::eval
