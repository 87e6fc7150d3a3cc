#include "core/lazy/mesh.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"

namespace systolic::lazy {

PartitionSpec::PartitionSpec(std::initializer_list<const char*> axes) {
  for (const char* axis : axes) {
    if (axis == nullptr || *axis == '\0') {
      axes_.push_back({});
    } else {
      axes_.push_back({axis});
    }
  }
}

std::string PartitionSpec::ToString() const {
  std::vector<std::string> parts;
  for (const auto& dim : axes_) {
    if (dim.empty()) {
      parts.push_back("None");
    } else if (dim.size() == 1) {
      parts.push_back(absl::StrCat("'", dim[0], "'"));
    } else {
      parts.push_back(absl::StrCat("('", absl::StrJoin(dim, "', '"), "')"));
    }
  }
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

absl::StatusOr<Mesh> Mesh::Create(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                  std::vector<int64_t> device_ids) {
  if (shape.size() != axis_names.size()) {
    return absl::InvalidArgumentError(absl::StrCat("a mesh of ", shape.size(), " axes needs ",
                                                   shape.size(), " axis names, got ",
                                                   axis_names.size()));
  }
  const int64_t size = std::accumulate(shape.begin(), shape.end(), int64_t{1},
                                       std::multiplies<int64_t>());
  if (device_ids.empty()) {
    device_ids.resize(size);
    std::iota(device_ids.begin(), device_ids.end(), 0);
  }
  if (int64_t(device_ids.size()) != size) {
    return absl::InvalidArgumentError(absl::StrCat("a mesh of shape [", absl::StrJoin(shape, ","),
                                                   "] needs ", size, " devices, got ",
                                                   device_ids.size()));
  }
  for (size_t i = 0; i < axis_names.size(); ++i) {
    for (size_t j = i + 1; j < axis_names.size(); ++j) {
      if (axis_names[i] == axis_names[j]) {
        return absl::InvalidArgumentError(absl::StrCat("mesh axis '", axis_names[i],
                                                       "' is named twice"));
      }
    }
  }
  Mesh mesh;
  mesh.shape_ = std::move(shape);
  mesh.axis_names_ = std::move(axis_names);
  mesh.device_ids_ = std::move(device_ids);
  return mesh;
}

absl::StatusOr<int64_t> Mesh::axis_size(const std::string& name) const {
  for (size_t i = 0; i < axis_names_.size(); ++i) {
    if (axis_names_[i] == name) return shape_[i];
  }
  return absl::InvalidArgumentError(absl::StrCat("the mesh has no axis '", name, "' (axes: ",
                                                 absl::StrJoin(axis_names_, ", "), ")"));
}

absl::StatusOr<HloSharding> Mesh::ToSharding(const PartitionSpec& spec, int64_t rank) const {
  if (int64_t(spec.axes().size()) != rank) {
    return absl::InvalidArgumentError(absl::StrCat("partition spec ", spec.ToString(), " has ",
                                                   spec.axes().size(),
                                                   " entries for a tensor of rank ", rank));
  }
  // Mesh axes in the order the tile assignment visits them: the axes of
  // dimension 0, of dimension 1, ..., then the unused (replicated) ones.
  std::vector<int64_t> order;
  std::vector<int64_t> tile_dims;
  for (const auto& dim_axes : spec.axes()) {
    int64_t tiles = 1;
    for (const std::string& name : dim_axes) {
      auto it = std::find(axis_names_.begin(), axis_names_.end(), name);
      if (it == axis_names_.end()) {
        return absl::InvalidArgumentError(absl::StrCat("partition spec ", spec.ToString(),
                                                       " names axis '", name,
                                                       "', which the mesh does not have"));
      }
      const int64_t axis = it - axis_names_.begin();
      if (std::find(order.begin(), order.end(), axis) != order.end()) {
        return absl::InvalidArgumentError(absl::StrCat("partition spec ", spec.ToString(),
                                                       " uses axis '", name, "' twice"));
      }
      order.push_back(axis);
      tiles *= shape_[axis];
    }
    tile_dims.push_back(tiles);
  }
  if (order.empty()) return HloSharding::Replicate();
  int64_t replicated = 1;
  for (int64_t axis = 0; axis < int64_t(shape_.size()); ++axis) {
    if (std::find(order.begin(), order.end(), axis) == order.end()) {
      order.push_back(axis);
      replicated *= shape_[axis];
    }
  }
  // Devices of the mesh transposed to `order`, row-major.
  std::vector<int64_t> strides(shape_.size(), 1);
  for (int64_t i = int64_t(shape_.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape_[i + 1];
  std::vector<int64_t> devices;
  devices.reserve(device_ids_.size());
  std::vector<int64_t> index(order.size(), 0);
  for (int64_t n = 0; n < size(); ++n) {
    int64_t linear = 0;
    for (size_t k = 0; k < order.size(); ++k) linear += index[k] * strides[order[k]];
    devices.push_back(device_ids_[linear]);
    for (int64_t k = int64_t(order.size()) - 1; k >= 0; --k) {
      if (++index[k] < shape_[order[k]]) break;
      index[k] = 0;
    }
  }
  std::vector<HloSharding::SubgroupType> subgroups;
  if (replicated > 1) {
    tile_dims.push_back(replicated);
    subgroups.push_back(HloSharding::SubgroupType::kReplicated);
  }
  return HloSharding::Tile(TileAssignment(tile_dims, devices), subgroups);
}

absl::Status MarkSharding(const Tensor& x, const Mesh& mesh, const PartitionSpec& spec) {
  SYSTOLIC_RETURN_IF_ERROR(x.status());
  SYSTOLIC_ASSIGN_OR_RETURN(HloSharding sharding, mesh.ToSharding(spec, x.rank()));
  for (size_t d = 0; sharding.IsTiled() && d < spec.axes().size(); ++d) {
    const int64_t tiles = sharding.tile_assignment().dimensions()[d];
    if (x.dim(int64_t(d)) % tiles != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dimension ", d, " of ", x.shape().ToString(), " (", x.dim(int64_t(d)),
          ") does not split evenly into ", tiles, " tiles by ", spec.ToString()));
    }
  }
  const NodePtr& node = x.node();
  if (node->is_data()) {
    x.SetNode(Node::MakeData(node->data(), sharding, node->metadata()));
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(NodePtr annotated, graph::Sharding(node, sharding));
    x.SetNode(std::move(annotated));
  }
  return absl::OkStatus();
}

}  // namespace systolic::lazy
