#include "core/lazy/sgd.h"

#include "core/hlo/status_macros.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {

Sgd::Sgd(std::vector<Tensor> parameters, SgdOptions options)
    : Optimizer(std::move(parameters), options.learning_rate, options.learning_rate_as_data),
      options_(options) {}

absl::StatusOr<std::unique_ptr<Sgd>> Sgd::Create(std::vector<Tensor> parameters,
                                                 SgdOptions options) {
  std::unique_ptr<Sgd> sgd(new Sgd(std::move(parameters), options));
  if (options.momentum != 0) {
    for (const Tensor& p : sgd->parameters()) {
      SYSTOLIC_ASSIGN_OR_RETURN(Tensor v, ZeroState(p, "momentum"));
      sgd->velocity_.push_back(std::move(v));
    }
  }
  return sgd;
}

absl::Status Sgd::Step(absl::Span<const Tensor> gradients) {
  SYSTOLIC_RETURN_IF_ERROR(CheckGradients(gradients));
  NameScope scope("sgd");
  for (size_t i = 0; i < parameters().size(); ++i) {
    const Tensor& p = parameters()[i];
    Tensor g = gradients[i];
    if (options_.weight_decay != 0) g = g + p * options_.weight_decay;
    if (options_.momentum != 0) {
      Tensor v = velocity_[i] * options_.momentum + g;
      SYSTOLIC_RETURN_IF_ERROR(velocity_[i].Assign(v));
      g = v;
    }
    SYSTOLIC_RETURN_IF_ERROR(p.status());
    Tensor updated = p - LearningRate(p) * g;
    SYSTOLIC_RETURN_IF_ERROR(p.Assign(updated));
  }
  return absl::OkStatus();
}

}  // namespace systolic::lazy
