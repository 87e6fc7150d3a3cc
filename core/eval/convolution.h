// General convolution on the host: dim_labels in any order, window stride,
// padding (negative too), lhs and rhs dilation, window reversal,
// feature_group_count and batch_group_count (StableHLO's definition: the
// groups split the input feature / batch dimension and the kernel's output
// features into contiguous blocks). Lowered to im2col and the GEMM of
// dot_general.h, in the accumulation type of the result.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/literal.h"
#include "core/hlo/shape.h"
#include "core/hlo/window.h"

namespace systolic::eval {

absl::StatusOr<Literal> Convolution(const Literal& lhs, const Literal& rhs, const Window& window,
                                    const ConvolutionDimensionNumbers& dnums,
                                    int64_t feature_group_count, int64_t batch_group_count,
                                    const Shape& result_shape);

}  // namespace systolic::eval
