// A tensor on a lazy device: operations on it are recorded, not run. Its
// value is computed when the device's mark_step() cuts the pending graph, or
// when the value is read (which runs only what that value needs).
//
// Operations never fail at the call: like XLA's builder, a bad operation
// (mismatched shapes, say) yields an error tensor that carries the status,
// operations on it carry the error on, and reading it or the next
// mark_step() returns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/literal.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

class LazyDevice;
struct TensorState;

class Tensor {
 public:
  Tensor() = default;  // an undefined handle

  bool defined() const { return state_ != nullptr; }
  LazyDevice* device() const;
  // OK, or why the tensor could not be recorded.
  absl::Status status() const;
  bool ok() const { return status().ok(); }

  const Shape& shape() const;
  PrimitiveType dtype() const { return shape().element_type(); }
  int64_t rank() const { return shape().rank(); }
  const std::vector<int64_t>& dims() const { return shape().dimensions(); }
  // Size of dimension `i`; a negative `i` counts from the end.
  int64_t dim(int64_t i) const;
  int64_t numel() const { return shape().num_elements(); }

  // The node holding the current value (device data, or a pending operation).
  const NodePtr& node() const;
  // Operations recorded since the value was last computed.
  bool is_pending() const;
  // How the value is laid out over the devices, when annotated.
  std::optional<HloSharding> sharding() const;

  const std::string& name() const;
  void set_name(std::string name);

  // The value (of replica 0). Runs only what this tensor needs when pending.
  absl::StatusOr<Literal> ToLiteral(
      std::source_location where = std::source_location::current()) const;
  // The value on every replica (one per replica; one for SPMD devices).
  absl::StatusOr<std::vector<Literal>> ToReplicaLiterals(
      std::source_location where = std::source_location::current()) const;
  // The value of a one-element tensor.
  absl::StatusOr<double> Item(std::source_location where = std::source_location::current()) const;

  // In-place update (`p.copy_(v)`): this tensor now holds `value`'s
  // computation. A sharded tensor keeps its sharding.
  absl::Status Assign(const Tensor& value) const;

  // --- For the front end's own operations -------------------------------------
  static Tensor Make(LazyDevice* device, NodePtr node);
  static Tensor MakeError(LazyDevice* device, absl::Status status);
  // Replaces the node (used when annotating sharding or materialising).
  void SetNode(NodePtr node) const;
  const std::shared_ptr<TensorState>& state() const { return state_; }
  explicit Tensor(std::shared_ptr<TensorState> state) : state_(std::move(state)) {}

 private:
  std::shared_ptr<TensorState> state_;
};

// Records one tensor operation: unless an input is undefined, in error or on
// another device, `build` makes the node from the inputs' nodes and the
// result (or its error) becomes a tensor on the inputs' device.
Tensor RecordOp(absl::Span<const Tensor> inputs,
                absl::FunctionRef<absl::StatusOr<NodePtr>()> build);

}  // namespace systolic::lazy
