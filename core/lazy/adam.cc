#include "core/lazy/adam.h"

#include "core/hlo/status_macros.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {

Adam::Adam(std::vector<Tensor> parameters, AdamOptions options)
    : Optimizer(std::move(parameters), options.learning_rate, options.learning_rate_as_data),
      options_(options) {}

absl::StatusOr<std::unique_ptr<Adam>> Adam::Create(std::vector<Tensor> parameters,
                                                   AdamOptions options) {
  std::unique_ptr<Adam> adam(new Adam(std::move(parameters), options));
  for (const Tensor& p : adam->parameters()) {
    SYSTOLIC_ASSIGN_OR_RETURN(Tensor m, ZeroState(p, "adam_m"));
    SYSTOLIC_ASSIGN_OR_RETURN(Tensor v, ZeroState(p, "adam_v"));
    adam->m_.push_back(std::move(m));
    adam->v_.push_back(std::move(v));
  }
  if (!adam->parameters().empty()) {
    LazyDevice& device = *adam->parameters()[0].device();
    const PrimitiveType type = adam->parameters()[0].dtype();
    adam->beta1_power_ = ScalarData(device, 1.0, type, "adam/beta1_power");
    adam->beta2_power_ = ScalarData(device, 1.0, type, "adam/beta2_power");
    SYSTOLIC_RETURN_IF_ERROR(adam->beta1_power_.status());
    SYSTOLIC_RETURN_IF_ERROR(adam->beta2_power_.status());
  }
  return adam;
}

absl::Status Adam::Step(absl::Span<const Tensor> gradients) {
  SYSTOLIC_RETURN_IF_ERROR(CheckGradients(gradients));
  if (parameters().empty()) return absl::OkStatus();
  NameScope scope("adam");
  const AdamOptions& o = options_;
  Tensor b1t = beta1_power_ * o.beta1;
  Tensor b2t = beta2_power_ * o.beta2;
  SYSTOLIC_RETURN_IF_ERROR(beta1_power_.Assign(b1t));
  SYSTOLIC_RETURN_IF_ERROR(beta2_power_.Assign(b2t));
  Tensor correction1 = 1.0 - b1t;
  Tensor correction2 = 1.0 - b2t;
  for (size_t i = 0; i < parameters().size(); ++i) {
    const Tensor& p = parameters()[i];
    const Tensor& g = gradients[i];
    Tensor m = m_[i] * o.beta1 + g * (1 - o.beta1);
    Tensor v = v_[i] * o.beta2 + g * g * (1 - o.beta2);
    SYSTOLIC_RETURN_IF_ERROR(m_[i].Assign(m));
    SYSTOLIC_RETURN_IF_ERROR(v_[i].Assign(v));
    Tensor step = (m / correction1) / (Sqrt(v / correction2) + o.epsilon);
    Tensor updated = p;
    if (o.weight_decay != 0) updated = updated - LearningRate(p) * o.weight_decay * p;
    updated = updated - LearningRate(p) * step;
    SYSTOLIC_RETURN_IF_ERROR(p.Assign(updated));
  }
  return absl::OkStatus();
}

}  // namespace systolic::lazy
