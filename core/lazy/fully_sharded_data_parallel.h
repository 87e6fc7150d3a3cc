// Fully sharded data parallelism (FSDP): each replica keeps only a shard of
// every parameter (flattened and padded to equal chunks). Before use the
// shards are all-gathered; autodiff turns that all-gather into a
// reduce-scatter of the gradient, so each replica receives exactly the
// gradient of its own shard and updates only that shard.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/literal.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

struct ShardedParameter {
  Tensor shard;      // rank 1: this replica's chunk
  Shape full_shape;  // of the whole parameter
};

class FullyShardedDataParallel {
 public:
  explicit FullyShardedDataParallel(LazyDevice& device) : device_(&device) {}

  int64_t world_size() const { return device_->replica_count(); }
  // Splits `full` over the replicas; replica r holds chunk r.
  absl::StatusOr<ShardedParameter> ShardParameter(const Literal& full,
                                                  absl::string_view name) const;
  // The whole parameter for the forward pass (all-gather, drop padding,
  // reshape).
  Tensor Gather(const ShardedParameter& parameter) const;
  // d loss / d shard for each parameter, averaged over the replicas (each
  // replica's loss is the mean over its own batch).
  std::vector<Tensor> ShardGradients(const Tensor& loss,
                                     absl::Span<const ShardedParameter> parameters) const;
  // The whole parameter's value on the host, joined from the shards.
  absl::StatusOr<Literal> FullValue(const ShardedParameter& parameter) const;

 private:
  LazyDevice* device_;
};

}  // namespace systolic::lazy
