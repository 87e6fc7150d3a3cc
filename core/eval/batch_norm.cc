#include "core/eval/batch_norm.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"

namespace systolic::eval {
namespace {

// The operand viewed as [outer, features, inner] around the feature dimension.
struct FeatureView {
  int64_t outer = 1, features = 1, inner = 1;
  int64_t count() const { return outer * inner; }  // elements per feature
};

absl::StatusOr<FeatureView> ViewOf(const Literal& operand, int64_t feature_index) {
  const Shape& s = operand.shape();
  if (!s.IsArray() || !primitive_util::IsFloatingPointType(s.element_type()) ||
      feature_index < 0 || feature_index >= s.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("batch norm needs a float array with feature ",
                                                   "dimension ", feature_index, ", got ",
                                                   s.ToString()));
  }
  FeatureView v;
  for (int64_t d = 0; d < s.rank(); ++d) {
    if (d < feature_index) v.outer *= s.dimensions(d);
    if (d > feature_index) v.inner *= s.dimensions(d);
  }
  v.features = s.dimensions(feature_index);
  return v;
}

// The values of `l` in the compute type C.
template <typename C>
std::vector<C> Values(const Literal& l) {
  std::vector<C> v(size_t(l.element_count()));
  for (int64_t i = 0; i < l.element_count(); ++i) v[i] = C(l.GetAsDouble(i));
  return v;
}

template <typename C>
Literal FromValues(const std::vector<C>& v, const Shape& shape) {
  Literal l(shape);
  for (size_t i = 0; i < v.size(); ++i) l.SetFromDouble(int64_t(i), double(v[i]));
  return l;
}

absl::Status CheckVector(const Literal& l, const FeatureView& v, const char* what) {
  if (!l.shape().IsArray() || l.shape().rank() != 1 || l.element_count() != v.features) {
    return absl::InvalidArgumentError(absl::StrCat("batch norm ", what, " must have ", v.features,
                                                   " elements, got ", l.shape().ToString()));
  }
  return absl::OkStatus();
}

// Calls f(feature, linear index) over every element.
template <typename F>
void ForEach(const FeatureView& v, F&& f) {
  int64_t i = 0;
  for (int64_t o = 0; o < v.outer; ++o) {
    for (int64_t c = 0; c < v.features; ++c) {
      for (int64_t j = 0; j < v.inner; ++j) f(c, i++);
    }
  }
}

template <typename C>
absl::StatusOr<Literal> Training(const Literal& operand, const Literal& scale,
                                 const Literal& offset, C eps, const FeatureView& v) {
  std::vector<C> x = Values<C>(operand), g = Values<C>(scale), b = Values<C>(offset);
  std::vector<C> mean(v.features, 0), var(v.features, 0);
  const C n = C(v.count());
  ForEach(v, [&](int64_t c, int64_t i) { mean[c] += x[i]; });
  for (C& m : mean) m /= n;
  ForEach(v, [&](int64_t c, int64_t i) { var[c] += (x[i] - mean[c]) * (x[i] - mean[c]); });
  for (C& s : var) s /= n;
  std::vector<C> y(x.size());
  ForEach(v, [&](int64_t c, int64_t i) {
    y[i] = (x[i] - mean[c]) / std::sqrt(var[c] + eps) * g[c] + b[c];
  });
  Shape vector(operand.element_type(), {v.features});
  return Literal::MakeTupleOwned(FromValues(y, operand.shape()), FromValues(mean, vector),
                                 FromValues(var, vector));
}

template <typename C>
absl::StatusOr<Literal> Inference(const Literal& operand, const Literal& scale,
                                  const Literal& offset, const Literal& mean_l,
                                  const Literal& var_l, C eps, const FeatureView& v) {
  std::vector<C> x = Values<C>(operand), g = Values<C>(scale), b = Values<C>(offset),
                 mean = Values<C>(mean_l), var = Values<C>(var_l);
  std::vector<C> y(x.size());
  ForEach(v, [&](int64_t c, int64_t i) {
    y[i] = (x[i] - mean[c]) / std::sqrt(var[c] + eps) * g[c] + b[c];
  });
  return FromValues(y, operand.shape());
}

template <typename C>
absl::StatusOr<Literal> Grad(const Literal& operand, const Literal& scale, const Literal& mean_l,
                             const Literal& var_l, const Literal& grad_l, C eps,
                             const FeatureView& v) {
  std::vector<C> x = Values<C>(operand), g = Values<C>(scale), mean = Values<C>(mean_l),
                 var = Values<C>(var_l), dy = Values<C>(grad_l);
  std::vector<C> sum_dy(v.features, 0), sum_dy_xc(v.features, 0);
  ForEach(v, [&](int64_t c, int64_t i) {
    sum_dy[c] += dy[i];
    sum_dy_xc[c] += dy[i] * (x[i] - mean[c]);
  });
  const C n = C(v.count());
  std::vector<C> dx(x.size()), dscale(v.features), doffset(v.features);
  for (int64_t c = 0; c < v.features; ++c) {
    dscale[c] = sum_dy_xc[c] / std::sqrt(var[c] + eps);
    doffset[c] = sum_dy[c];
  }
  ForEach(v, [&](int64_t c, int64_t i) {
    const C inv = C(1) / std::sqrt(var[c] + eps);
    dx[i] = g[c] * inv *
            (dy[i] - sum_dy[c] / n - (x[i] - mean[c]) * (sum_dy_xc[c] / n) / (var[c] + eps));
  });
  Shape vector(operand.element_type(), {v.features});
  return Literal::MakeTupleOwned(FromValues(dx, operand.shape()), FromValues(dscale, vector),
                                 FromValues(doffset, vector));
}

}  // namespace

absl::StatusOr<Literal> BatchNormTraining(const Literal& operand, const Literal& scale,
                                          const Literal& offset, float epsilon,
                                          int64_t feature_index) {
  auto v = ViewOf(operand, feature_index);
  if (!v.ok()) return v.status();
  for (auto [l, what] : {std::pair{&scale, "scale"}, std::pair{&offset, "offset"}}) {
    if (auto s = CheckVector(*l, *v, what); !s.ok()) return s;
  }
  if (operand.element_type() == F64) return Training<double>(operand, scale, offset, epsilon, *v);
  return Training<float>(operand, scale, offset, epsilon, *v);
}

absl::StatusOr<Literal> BatchNormInference(const Literal& operand, const Literal& scale,
                                           const Literal& offset, const Literal& mean,
                                           const Literal& variance, float epsilon,
                                           int64_t feature_index) {
  auto v = ViewOf(operand, feature_index);
  if (!v.ok()) return v.status();
  for (auto [l, what] : {std::pair{&scale, "scale"}, std::pair{&offset, "offset"},
                         std::pair{&mean, "mean"}, std::pair{&variance, "variance"}}) {
    if (auto s = CheckVector(*l, *v, what); !s.ok()) return s;
  }
  if (operand.element_type() == F64) {
    return Inference<double>(operand, scale, offset, mean, variance, epsilon, *v);
  }
  return Inference<float>(operand, scale, offset, mean, variance, epsilon, *v);
}

absl::StatusOr<Literal> BatchNormGrad(const Literal& operand, const Literal& scale,
                                      const Literal& mean, const Literal& variance,
                                      const Literal& grad_output, float epsilon,
                                      int64_t feature_index) {
  auto v = ViewOf(operand, feature_index);
  if (!v.ok()) return v.status();
  for (auto [l, what] : {std::pair{&scale, "scale"}, std::pair{&mean, "mean"},
                         std::pair{&variance, "variance"}}) {
    if (auto s = CheckVector(*l, *v, what); !s.ok()) return s;
  }
  if (grad_output.shape().dimensions() != operand.shape().dimensions()) {
    return absl::InvalidArgumentError("batch-norm-grad: grad_output must match the operand");
  }
  if (operand.element_type() == F64) {
    return Grad<double>(operand, scale, mean, variance, grad_output, epsilon, *v);
  }
  return Grad<float>(operand, scale, mean, variance, grad_output, epsilon, *v);
}

}  // namespace systolic::eval
