#include "core/lazy/creation_ops.h"

#include "core/lazy/name_scope.h"

namespace systolic::lazy {
namespace {

Tensor FromData(LazyDevice& device, absl::Span<const Literal> values, absl::string_view name) {
  absl::StatusOr<std::shared_ptr<const DeviceData>> data = device.TransferToDevice(values);
  if (!data.ok()) return Tensor::MakeError(&device, data.status());
  OpMetadata metadata = NameScope::MetadataFor(name.empty() ? "data" : name);
  metadata.op_type = "device_data";
  Tensor t = Tensor::Make(&device, Node::MakeData(*std::move(data), std::nullopt, metadata));
  if (!name.empty()) t.set_name(metadata.op_name);
  return t;
}

}  // namespace

Tensor FromLiteral(LazyDevice& device, const Literal& value, absl::string_view name) {
  return FromData(device, {&value, 1}, name);
}

Tensor FromReplicaLiterals(LazyDevice& device, absl::Span<const Literal> values,
                           absl::string_view name) {
  return FromData(device, values, name);
}

Tensor FromVector(LazyDevice& device, absl::Span<const float> values,
                  absl::Span<const int64_t> dims, absl::string_view name) {
  const Shape shape(F32, dims);
  if (shape.num_elements() != int64_t(values.size())) {
    return Tensor::MakeError(&device, absl::InvalidArgumentError("the number of "
                                                                 "values does not match the "
                                                                 "dimensions"));
  }
  return FromLiteral(device, Literal::CreateFromVector<float>(shape, values), name);
}

Tensor FromInt32Vector(LazyDevice& device, absl::Span<const int32_t> values,
                       absl::Span<const int64_t> dims, absl::string_view name) {
  const Shape shape(S32, dims);
  if (shape.num_elements() != int64_t(values.size())) {
    return Tensor::MakeError(&device, absl::InvalidArgumentError("the number of "
                                                                 "values does not match the "
                                                                 "dimensions"));
  }
  return FromLiteral(device, Literal::CreateFromVector<int32_t>(shape, values), name);
}

Tensor Scalar(LazyDevice& device, double value, PrimitiveType type) {
  return Tensor::Make(&device, graph::ScalarConstant(value, type, "scalar"));
}

Tensor ScalarData(LazyDevice& device, double value, PrimitiveType type, absl::string_view name) {
  Literal literal(Shape::MakeScalar(type));
  literal.SetFromDouble(0, value);
  return FromLiteral(device, literal, name.empty() ? "scalar" : name);
}

Tensor Full(LazyDevice& device, absl::Span<const int64_t> dims, double value,
            PrimitiveType type) {
  absl::StatusOr<NodePtr> node = graph::Full(value, Shape(type, dims));
  if (!node.ok()) return Tensor::MakeError(&device, node.status());
  return Tensor::Make(&device, *std::move(node));
}

Tensor Zeros(LazyDevice& device, absl::Span<const int64_t> dims, PrimitiveType type) {
  return Full(device, dims, 0, type);
}

Tensor Ones(LazyDevice& device, absl::Span<const int64_t> dims, PrimitiveType type) {
  return Full(device, dims, 1, type);
}

Tensor ZerosLike(const Tensor& x) {
  return RecordOp({x}, [&] { return graph::Full(0, x.shape(), "zeros_like"); });
}

Tensor Iota(LazyDevice& device, absl::Span<const int64_t> dims, int64_t dimension,
            PrimitiveType type) {
  absl::StatusOr<NodePtr> node = graph::Iota(Shape(type, dims), dimension);
  if (!node.ok()) return Tensor::MakeError(&device, node.status());
  return Tensor::Make(&device, *std::move(node));
}

}  // namespace systolic::lazy
