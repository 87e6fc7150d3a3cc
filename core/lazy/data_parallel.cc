#include "core/lazy/data_parallel.h"

#include "core/lazy/collective_ops.h"
#include "core/lazy/creation_ops.h"
#include "core/lazy/host_split.h"
#include "core/lazy/math_ops.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {

Tensor ShardBatch(LazyDevice& device, const Literal& batch, absl::string_view name) {
  absl::StatusOr<std::vector<Literal>> pieces = SplitRows(batch, device.data_device_count());
  if (!pieces.ok()) return Tensor::MakeError(&device, pieces.status());
  return FromReplicaLiterals(device, *pieces, name);
}

std::vector<Tensor> DataParallel::AverageGradients(absl::Span<const Tensor> gradients) const {
  NameScope scope("ddp");
  std::vector<Tensor> out;
  out.reserve(gradients.size());
  for (const Tensor& g : gradients) {
    Tensor sum = AllReduceSum(g);
    out.push_back(world_size() == 1 ? sum : sum / double(world_size()));
  }
  return out;
}

}  // namespace systolic::lazy
