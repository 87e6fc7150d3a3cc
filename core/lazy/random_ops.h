// Random numbers from the device's seeded generator (three-fry bits from a
// u64[2] state tensor that every draw advances). The state is device data,
// so reseeding never recompiles, and replicas draw the same numbers.
#pragma once

#include <cstdint>

#include "absl/types/span.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// Uniform in [low, high).
Tensor RandomUniform(LazyDevice& device, absl::Span<const int64_t> dims, double low = 0,
                     double high = 1, PrimitiveType type = F32);
// Normal with `mean` and `stddev` (Box-Muller).
Tensor RandomNormal(LazyDevice& device, absl::Span<const int64_t> dims, double mean = 0,
                    double stddev = 1, PrimitiveType type = F32);

}  // namespace systolic::lazy
