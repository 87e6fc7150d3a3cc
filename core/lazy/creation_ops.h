// Making tensors: from host values (transferred at once, as a framework does
// when a tensor is moved to the device) or recorded (constants, iota).
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/literal.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// `value` on every replica. `name` (within the current scope) names the
// tensor in the lowered program's metadata and in recompilation causes.
Tensor FromLiteral(LazyDevice& device, const Literal& value, absl::string_view name = "");
// One value per replica: a replica's own batch, or its parameter shard.
Tensor FromReplicaLiterals(LazyDevice& device, absl::Span<const Literal> values,
                           absl::string_view name = "");
// Row-major `values` of `dims`.
Tensor FromVector(LazyDevice& device, absl::Span<const float> values,
                  absl::Span<const int64_t> dims, absl::string_view name = "");
Tensor FromInt32Vector(LazyDevice& device, absl::Span<const int32_t> values,
                       absl::Span<const int64_t> dims, absl::string_view name = "");

// A number baked into the graph as a constant, as a Python scalar is:
// changing it changes the program (and recompiles).
Tensor Scalar(LazyDevice& device, double value, PrimitiveType type = F32);
// A number held as device data: a new value is a transfer, not a new program.
Tensor ScalarData(LazyDevice& device, double value, PrimitiveType type = F32,
                  absl::string_view name = "");
// `value` everywhere (recorded as a broadcast constant).
Tensor Full(LazyDevice& device, absl::Span<const int64_t> dims, double value,
            PrimitiveType type = F32);
Tensor Zeros(LazyDevice& device, absl::Span<const int64_t> dims, PrimitiveType type = F32);
Tensor Ones(LazyDevice& device, absl::Span<const int64_t> dims, PrimitiveType type = F32);
Tensor ZerosLike(const Tensor& x);
// 0, 1, 2, ... along `dimension`.
Tensor Iota(LazyDevice& device, absl::Span<const int64_t> dims, int64_t dimension,
            PrimitiveType type = S32);

}  // namespace systolic::lazy
