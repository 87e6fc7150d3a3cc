#include "core/lazy/fully_sharded_data_parallel.h"

#include "core/hlo/status_macros.h"
#include "core/lazy/autodiff.h"
#include "core/lazy/collective_ops.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/host_split.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/shape_ops.h"

namespace systolic::lazy {

absl::StatusOr<ShardedParameter> FullyShardedDataParallel::ShardParameter(
    const Literal& full, absl::string_view name) const {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> chunks, SplitFlat(full, world_size()));
  ShardedParameter parameter;
  parameter.shard = FromReplicaLiterals(*device_, chunks, name);
  SYSTOLIC_RETURN_IF_ERROR(parameter.shard.status());
  parameter.full_shape = Shape(full.element_type(), full.shape().dimensions());
  return parameter;
}

Tensor FullyShardedDataParallel::Gather(const ShardedParameter& parameter) const {
  NameScope scope("fsdp_gather");
  Tensor flat = AllGather(parameter.shard, 0);
  Tensor used = Slice(flat, 0, 0, parameter.full_shape.num_elements());
  return Reshape(used, parameter.full_shape.dimensions());
}

std::vector<Tensor> FullyShardedDataParallel::ShardGradients(
    const Tensor& loss, absl::Span<const ShardedParameter> parameters) const {
  std::vector<Tensor> shards;
  for (const ShardedParameter& p : parameters) shards.push_back(p.shard);
  std::vector<Tensor> gradients = Gradients(loss, shards);
  if (world_size() == 1) return gradients;
  NameScope scope("fsdp");
  for (Tensor& g : gradients) g = g / double(world_size());
  return gradients;
}

absl::StatusOr<Literal> FullyShardedDataParallel::FullValue(
    const ShardedParameter& parameter) const {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> chunks, parameter.shard.ToReplicaLiterals());
  return JoinFlat(chunks, parameter.full_shape);
}

}  // namespace systolic::lazy
