// Distributed data parallelism (DDP) over a device's replicas: each replica
// runs the same program on its own slice of the batch; gradients are
// averaged with all-reduce instructions in the lowered program.
#pragma once

#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/literal.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// Replica r gets rows [r*B/N, (r+1)*B/N) of `batch` (B must divide by N).
Tensor ShardBatch(LazyDevice& device, const Literal& batch, absl::string_view name = "batch");

class DataParallel {
 public:
  explicit DataParallel(LazyDevice& device) : device_(&device) {}

  int64_t world_size() const { return device_->replica_count(); }
  Tensor ShardBatch(const Literal& batch, absl::string_view name = "batch") const {
    return lazy::ShardBatch(*device_, batch, name);
  }
  // The mean of each gradient over the replicas: sum by all-reduce, / N.
  std::vector<Tensor> AverageGradients(absl::Span<const Tensor> gradients) const;

 private:
  LazyDevice* device_;
};

}  // namespace systolic::lazy
