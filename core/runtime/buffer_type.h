// The C ABI's element types (SYSTOLIC_Buffer_Type) and the IR's PrimitiveType.
// The ABI's values are fixed once published, so the two enums may diverge:
// types added to the IR later get ABI values after the last published one.
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/primitive_type.h"
#include "core/hlo/shape.h"
#include "core/runtime/systolic_c_api.h"

namespace systolic::runtime {

// The ABI value of an array type or TOKEN; INVALID for tuples and opaque.
SYSTOLIC_Buffer_Type BufferTypeOf(PrimitiveType type);

// The IR type of an ABI value; an error names a value this ABI does not define
// (e.g. one from a newer plugin).
absl::StatusOr<PrimitiveType> PrimitiveTypeOf(SYSTOLIC_Buffer_Type type);

// The shape an ABI (type, dims) pair describes: a token, or an array.
absl::StatusOr<Shape> ShapeOfBuffer(SYSTOLIC_Buffer_Type type, const int64_t* dims,
                                    size_t num_dims);

}  // namespace systolic::runtime
