// StableHLO's uniform quantized element types, `!quant.uniform<...>`: the
// storage integer type (with an optional narrower range), the expressed
// float type, and a scale and zero point per tensor or per slice along one
// axis. A quantized value is stored as its integers; the scale and zero
// point say what real number each integer stands for:
// real = (stored - zero_point) * scale.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/primitive_type.h"

namespace systolic::mlir {

struct QuantType {
  PrimitiveType storage = PRIMITIVE_TYPE_INVALID;    // s8, u8, s4, s16, s32, ...
  PrimitiveType expressed = PRIMITIVE_TYPE_INVALID;  // f32, bf16, f16
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  int64_t axis = -1;                 // the quantized dimension; -1 per tensor
  std::vector<double> scales;        // one, or one per slice along `axis`
  std::vector<int64_t> zero_points;  // as many as scales
  bool per_axis() const { return axis >= 0; }
  friend bool operator==(const QuantType&, const QuantType&) = default;
};

// `text` is the type after `!quant.`: "uniform<i8:f32, 0.1:-30>",
// "uniform<i8<-127:127>:f32:0, {0.1:-30, 0.5}>". Errors say what is wrong.
absl::StatusOr<QuantType> ParseQuantType(absl::string_view text);

}  // namespace systolic::mlir
