// Integer division rounding up, for tile, fold and transfer counts.
#pragma once

#include <cstdint>

namespace systolic::device {

// a / b rounded up, for a >= 0 and b > 0.
inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace systolic::device
