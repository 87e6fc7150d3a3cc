#include "core/lazy/tensor.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/device_data.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor_state.h"

namespace systolic::lazy {

TensorState::TensorState(LazyDevice* device, NodePtr node, absl::Status status)
    : device(device), node(std::move(node)), status(std::move(status)) {}

TensorState::~TensorState() {
  if (device != nullptr && id >= 0) device->Unregister(id);
}

namespace {

const Shape& EmptyShape() {
  static const Shape* shape = new Shape();
  return *shape;
}

const NodePtr& NullNode() {
  static const NodePtr* node = new NodePtr();
  return *node;
}

}  // namespace

Tensor Tensor::Make(LazyDevice* device, NodePtr node) {
  auto state = std::make_shared<TensorState>(device, std::move(node), absl::OkStatus());
  if (device != nullptr) state->id = device->Register(state);
  return Tensor(std::move(state));
}

Tensor Tensor::MakeError(LazyDevice* device, absl::Status status) {
  if (device != nullptr) device->RecordError(status);
  return Tensor(std::make_shared<TensorState>(device, nullptr, std::move(status)));
}

LazyDevice* Tensor::device() const { return state_ ? state_->device : nullptr; }

absl::Status Tensor::status() const {
  if (!state_) return absl::FailedPreconditionError("undefined tensor");
  return state_->status;
}

const Shape& Tensor::shape() const {
  return state_ && state_->node ? state_->node->shape() : EmptyShape();
}

int64_t Tensor::dim(int64_t i) const {
  const int64_t r = rank();
  if (i < 0) i += r;
  return i >= 0 && i < r ? shape().dimensions(i) : 0;
}

const NodePtr& Tensor::node() const { return state_ ? state_->node : NullNode(); }

bool Tensor::is_pending() const { return state_ && state_->node && !state_->node->is_data(); }

std::optional<HloSharding> Tensor::sharding() const {
  if (!state_ || !state_->node || !state_->node->sharding()) return std::nullopt;
  return *state_->node->sharding();
}

const std::string& Tensor::name() const {
  static const std::string* empty = new std::string();
  return state_ ? state_->name : *empty;
}

void Tensor::set_name(std::string name) {
  if (state_) state_->name = std::move(name);
}

void Tensor::SetNode(NodePtr node) const {
  if (state_) state_->node = std::move(node);
}

absl::StatusOr<std::vector<Literal>> Tensor::ToReplicaLiterals(std::source_location where) const {
  SYSTOLIC_RETURN_IF_ERROR(status());
  LazyDevice* d = device();
  if (d == nullptr) return absl::FailedPreconditionError("the tensor's device is gone");
  SYSTOLIC_RETURN_IF_ERROR(d->Sync({this, 1}, where));
  return d->TransferToHost(*node()->data());
}

absl::StatusOr<Literal> Tensor::ToLiteral(std::source_location where) const {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> values, ToReplicaLiterals(where));
  return std::move(values[0]);
}

absl::StatusOr<double> Tensor::Item(std::source_location where) const {
  SYSTOLIC_ASSIGN_OR_RETURN(Literal value, ToLiteral(where));
  if (value.element_count() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Item() needs a one-element tensor, got ", value.shape().ToString()));
  }
  return value.GetAsDouble(0);
}

absl::Status Tensor::Assign(const Tensor& value) const {
  SYSTOLIC_RETURN_IF_ERROR(status());
  SYSTOLIC_RETURN_IF_ERROR(value.status());
  if (value.device() != device()) {
    return absl::InvalidArgumentError("cannot assign a tensor of another device");
  }
  if (value.shape().dimensions() != shape().dimensions() ||
      value.dtype() != dtype()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot assign ", value.shape().ToString(),
                                                   " to a tensor of ", shape().ToString()));
  }
  NodePtr node = value.node();
  // A parameter keeps its layout across updates.
  if (std::optional<HloSharding> keep = sharding();
      keep && (!node->sharding() || *node->sharding() != *keep)) {
    SYSTOLIC_ASSIGN_OR_RETURN(node, graph::Sharding(node, *keep));
  }
  SetNode(std::move(node));
  return absl::OkStatus();
}

Tensor RecordOp(absl::Span<const Tensor> inputs,
                absl::FunctionRef<absl::StatusOr<NodePtr>()> build) {
  LazyDevice* device = nullptr;
  for (const Tensor& t : inputs) {
    if (!t.defined()) return Tensor::MakeError(device, absl::InvalidArgumentError("undefined tensor"));
    if (device == nullptr) device = t.device();
  }
  for (const Tensor& t : inputs) {
    if (!t.ok()) return Tensor::MakeError(device, t.status());
    if (t.device() == nullptr) {
      return Tensor::MakeError(nullptr,
                               absl::FailedPreconditionError("the tensor's device is gone"));
    }
    if (t.device() != device) {
      return Tensor::MakeError(
          device, absl::InvalidArgumentError(absl::StrCat(
                      "operands on different devices: ", device->name(), " and ",
                      t.device()->name())));
    }
  }
  absl::StatusOr<NodePtr> node = build();
  if (!node.ok()) return Tensor::MakeError(device, node.status());
  return Tensor::Make(device, *std::move(node));
}

}  // namespace systolic::lazy
