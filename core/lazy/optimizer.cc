#include "core/lazy/optimizer.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/math_ops.h"

namespace systolic::lazy {

Optimizer::Optimizer(std::vector<Tensor> parameters, double learning_rate,
                     bool learning_rate_as_data)
    : parameters_(std::move(parameters)),
      learning_rate_(learning_rate),
      learning_rate_as_data_(learning_rate_as_data) {
  set_learning_rate(learning_rate);
}

void Optimizer::set_learning_rate(double learning_rate) {
  learning_rate_ = learning_rate;
  if (!learning_rate_as_data_ || parameters_.empty() || parameters_[0].device() == nullptr) return;
  learning_rate_data_ = ScalarData(*parameters_[0].device(), learning_rate,
                                   parameters_[0].dtype(), "learning_rate");
}

Tensor Optimizer::LearningRate(const Tensor& like) const {
  if (learning_rate_as_data_ && learning_rate_data_.defined()) return learning_rate_data_;
  return ScalarLike(like, learning_rate_);
}

absl::Status Optimizer::CheckGradients(absl::Span<const Tensor> gradients) const {
  if (gradients.size() != parameters_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("expected ", parameters_.size(),
                                                   " gradients, got ", gradients.size()));
  }
  for (const Tensor& g : gradients) SYSTOLIC_RETURN_IF_ERROR(g.status());
  return absl::OkStatus();
}

absl::StatusOr<Tensor> Optimizer::ZeroState(const Tensor& parameter, absl::string_view name) {
  SYSTOLIC_RETURN_IF_ERROR(parameter.status());
  LazyDevice* device = parameter.device();
  // One zero value per replica (a sharded parameter's state is a shard too).
  Tensor state = FromLiteral(*device, Literal(Shape(parameter.dtype(), parameter.dims())));
  SYSTOLIC_RETURN_IF_ERROR(state.status());
  state.set_name(absl::StrCat(parameter.name().empty() ? "parameter" : parameter.name(), "/",
                              name));
  OpMetadata metadata = state.node()->metadata();
  metadata.op_name = state.name();
  // The state of a sharded parameter is laid out as the parameter is.
  state.SetNode(Node::MakeData(state.node()->data(), parameter.sharding(), std::move(metadata)));
  return state;
}

}  // namespace systolic::lazy
