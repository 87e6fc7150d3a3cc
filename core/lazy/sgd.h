// Stochastic gradient descent with momentum and weight decay, as
// torch.optim.SGD: v = momentum * v + (g + wd * p); p -= lr * v.
#pragma once

#include "core/lazy/optimizer.h"

namespace systolic::lazy {

struct SgdOptions {
  double learning_rate = 0.01;
  double momentum = 0;
  double weight_decay = 0;
  bool learning_rate_as_data = false;
};

class Sgd : public Optimizer {
 public:
  // Fails only if a momentum buffer cannot be made.
  static absl::StatusOr<std::unique_ptr<Sgd>> Create(std::vector<Tensor> parameters,
                                                     SgdOptions options);
  absl::Status Step(absl::Span<const Tensor> gradients) override;
  const std::vector<Tensor>& momentum_buffers() const { return velocity_; }

 private:
  Sgd(std::vector<Tensor> parameters, SgdOptions options);
  SgdOptions options_;
  std::vector<Tensor> velocity_;
};

}  // namespace systolic::lazy
