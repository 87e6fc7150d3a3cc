// batch-norm-training / -inference / -grad with XLA's definitions: statistics
// over every dimension but `feature_index`, the biased variance, and
// epsilon added to the variance. Computed in f32 (f64 for f64) and rounded
// to the element type.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

// (output, batch mean, batch variance)
absl::StatusOr<Literal> BatchNormTraining(const Literal& operand, const Literal& scale,
                                          const Literal& offset, float epsilon,
                                          int64_t feature_index);
absl::StatusOr<Literal> BatchNormInference(const Literal& operand, const Literal& scale,
                                           const Literal& offset, const Literal& mean,
                                           const Literal& variance, float epsilon,
                                           int64_t feature_index);
// (grad operand, grad scale, grad offset)
absl::StatusOr<Literal> BatchNormGrad(const Literal& operand, const Literal& scale,
                                      const Literal& mean, const Literal& variance,
                                      const Literal& grad_output, float epsilon,
                                      int64_t feature_index);

}  // namespace systolic::eval
