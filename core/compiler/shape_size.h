// Bytes a value occupies in device memory: elements times their width, the
// dimensions padded up to the layout's first tile when it has one (an
// f32[3,5]{1,0:T(8,128)} takes a whole 8x128 tile).
#pragma once

#include <cstdint>

#include "core/hlo/shape.h"

namespace systolic {

// Arrays as above; tuples the sum of their elements; tokens and opaques 0.
int64_t ByteSizeOf(const Shape& shape);
// Bytes without tile padding.
int64_t UnpaddedByteSizeOf(const Shape& shape);

}  // namespace systolic
