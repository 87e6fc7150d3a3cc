#include "tests/core/lazy/gradient_checker.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/reduction_ops.h"
#include "gtest/gtest.h"

namespace systolic::lazy::testing {

Literal RandomLiteral(std::vector<int64_t> dims, int seed, double low, double high) {
  Literal l(Shape(F64, dims));
  uint64_t state = 0x2545F4914F6CDD1Dull * uint64_t(seed + 1);
  for (int64_t i = 0; i < l.element_count(); ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const double unit = double(state >> 11) / double(1ull << 53);
    l.data<double>()[i] = low + (high - low) * unit;
  }
  return l;
}

namespace {

// sum(w * f(x)) as a host number, for one set of input values.
double Objective(LazyDevice& device, const TensorFunction& f, const std::vector<Literal>& inputs,
                 const Literal& weights) {
  std::vector<Tensor> tensors;
  for (const Literal& l : inputs) tensors.push_back(FromLiteral(device, l));
  Tensor y = f(tensors);
  Tensor loss = Sum(Mul(y, FromLiteral(device, weights)));
  absl::StatusOr<double> value = loss.Item();
  EXPECT_TRUE(value.ok()) << value.status();
  return value.ok() ? *value : std::nan("");
}

}  // namespace

GradientCheckResult CheckGradients(LazyDevice& device, const TensorFunction& f,
                                   const std::vector<Literal>& inputs,
                                   std::vector<bool> differentiate, double epsilon) {
  GradientCheckResult result;
  if (differentiate.empty()) differentiate.assign(inputs.size(), true);

  // The output's shape, to make the weights.
  std::vector<Tensor> tensors;
  for (const Literal& l : inputs) tensors.push_back(FromLiteral(device, l));
  Tensor y = f(tensors);
  EXPECT_TRUE(y.ok()) << y.status();
  if (!y.ok()) return result;
  Literal weights = RandomLiteral(y.dims(), 99, 0.5, 1.5);
  if (y.dtype() != F64) weights = *weights.Convert(y.dtype());

  std::vector<Tensor> wrt;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (differentiate[i]) wrt.push_back(tensors[i]);
  }
  Tensor loss = Sum(Mul(y, FromLiteral(device, weights)));
  std::vector<Tensor> gradients = Gradients(loss, wrt);

  size_t k = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!differentiate[i]) continue;
    absl::StatusOr<Literal> analytic = gradients[k++].ToLiteral();
    EXPECT_TRUE(analytic.ok()) << analytic.status();
    if (!analytic.ok()) return result;
    for (int64_t e = 0; e < inputs[i].element_count(); ++e) {
      std::vector<Literal> plus, minus;
      for (const Literal& l : inputs) {
        plus.push_back(l.Clone());
        minus.push_back(l.Clone());
      }
      plus[i].data<double>()[e] += epsilon;
      minus[i].data<double>()[e] -= epsilon;
      const double numeric = (Objective(device, f, plus, weights) -
                              Objective(device, f, minus, weights)) /
                             (2 * epsilon);
      const double exact = analytic->GetAsDouble(e);
      const double error = std::abs(numeric - exact) / std::max(1.0, std::abs(numeric));
      if (!(error <= result.max_error)) {
        result.max_error = error;
        result.worst = absl::StrCat("input ", i, " element ", e, ": analytic ", exact,
                                    ", numeric ", numeric);
      }
    }
  }
  return result;
}

}  // namespace systolic::lazy::testing
