// A logical mesh over the devices of a topology with named axes ("data",
// "model"), and partition specs saying which tensor dimension is split over
// which axes — turned into the HloSharding annotations the SPMD partitioner
// consumes, as torch_xla's Mesh / mark_sharding and JAX's PartitionSpec do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_sharding.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// For each tensor dimension, the mesh axes it is split over (none:
// replicated along that dimension).
class PartitionSpec {
 public:
  PartitionSpec() = default;
  // One entry per dimension: an axis name, or "" for an unsplit dimension.
  PartitionSpec(std::initializer_list<const char*> axes);
  explicit PartitionSpec(std::vector<std::vector<std::string>> axes) : axes_(std::move(axes)) {}

  const std::vector<std::vector<std::string>>& axes() const { return axes_; }
  // "('data', None)"
  std::string ToString() const;

 private:
  std::vector<std::vector<std::string>> axes_;
};

class Mesh {
 public:
  // `device_ids` in row-major order over `shape` (empty: 0, 1, 2, ...).
  static absl::StatusOr<Mesh> Create(std::vector<int64_t> shape,
                                     std::vector<std::string> axis_names,
                                     std::vector<int64_t> device_ids = {});

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<std::string>& axis_names() const { return axis_names_; }
  const std::vector<int64_t>& device_ids() const { return device_ids_; }
  int64_t size() const { return int64_t(device_ids_.size()); }
  absl::StatusOr<int64_t> axis_size(const std::string& name) const;

  // The tiled sharding of a `rank`-D tensor laid out by `spec`; mesh axes
  // the spec leaves unused replicate (last_tile_dim_replicate).
  absl::StatusOr<HloSharding> ToSharding(const PartitionSpec& spec, int64_t rank) const;

 private:
  std::vector<int64_t> shape_;
  std::vector<std::string> axis_names_;
  std::vector<int64_t> device_ids_;
};

// Annotates `x` with the sharding of `spec` over `mesh` (torch_xla's
// mark_sharding): device data become sharded parameters of the lowered
// program; a pending value gets a Sharding custom-call. Changing a tensor's
// sharding changes the program.
absl::Status MarkSharding(const Tensor& x, const Mesh& mesh, const PartitionSpec& spec);

}  // namespace systolic::lazy
