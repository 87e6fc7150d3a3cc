// Optimizers update parameters in place (Tensor::Assign) from gradients;
// the updates are recorded and run at the next mark_step(). The learning
// rate is either baked into the graph as a constant (changing it recompiles,
// as a Python float does) or held as device data (changing it is a transfer).
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

class Optimizer {
 public:
  Optimizer(std::vector<Tensor> parameters, double learning_rate, bool learning_rate_as_data);
  virtual ~Optimizer() = default;

  // Records one update of every parameter from its gradient (same order).
  virtual absl::Status Step(absl::Span<const Tensor> gradients) = 0;

  const std::vector<Tensor>& parameters() const { return parameters_; }
  double learning_rate() const { return learning_rate_; }
  void set_learning_rate(double learning_rate);

 protected:
  // The learning rate as a tensor operand of the update.
  Tensor LearningRate(const Tensor& like) const;
  absl::Status CheckGradients(absl::Span<const Tensor> gradients) const;
  // A zero-initialised state tensor like `parameter`, materialised as data.
  static absl::StatusOr<Tensor> ZeroState(const Tensor& parameter, absl::string_view name);

 private:
  std::vector<Tensor> parameters_;
  double learning_rate_;
  bool learning_rate_as_data_;
  Tensor learning_rate_data_;
};

}  // namespace systolic::lazy
