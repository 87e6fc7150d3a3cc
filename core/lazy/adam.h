// Adam (and AdamW's decoupled weight decay), as torch.optim.Adam/AdamW.
// The bias corrections 1 - beta^t are computed on the device from running
// powers held as device data: a step count baked in as a constant would
// recompile every step.
#pragma once

#include "core/lazy/optimizer.h"

namespace systolic::lazy {

struct AdamOptions {
  double learning_rate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double weight_decay = 0;  // decoupled (AdamW)
  bool learning_rate_as_data = false;
};

class Adam : public Optimizer {
 public:
  static absl::StatusOr<std::unique_ptr<Adam>> Create(std::vector<Tensor> parameters,
                                                      AdamOptions options);
  absl::Status Step(absl::Span<const Tensor> gradients) override;

 private:
  Adam(std::vector<Tensor> parameters, AdamOptions options);
  AdamOptions options_;
  std::vector<Tensor> m_, v_;
  Tensor beta1_power_, beta2_power_;  // beta^t, scalars
};

}  // namespace systolic::lazy
