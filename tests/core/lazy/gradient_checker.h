// Checks autodiff against central finite differences: the function is run on
// f64 inputs (the test interpreter computes in double), its output reduced to
// a scalar with fixed pseudo-random weights, and every input element nudged
// by +-epsilon.
#pragma once

#include <functional>
#include <vector>

#include "core/hlo/literal.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy::testing {

using TensorFunction = std::function<Tensor(const std::vector<Tensor>& inputs)>;

// An f64 literal of `dims` with values from a fixed sequence in
// [low, high); `seed` picks the sequence.
Literal RandomLiteral(std::vector<int64_t> dims, int seed, double low = -1, double high = 1);

struct GradientCheckResult {
  double max_error = 0;       // largest |analytic - numeric|
  std::string worst;          // where it happened
};

// Gradients of sum(w * f(inputs)) w.r.t. the inputs marked in `differentiate`
// (all when empty), analytic vs numeric. ADD_FAILURE()s on errors.
GradientCheckResult CheckGradients(LazyDevice& device, const TensorFunction& f,
                                   const std::vector<Literal>& inputs,
                                   std::vector<bool> differentiate = {}, double epsilon = 1e-6);

}  // namespace systolic::lazy::testing
