#include "core/lazy/graph_ops.h"

#include <cmath>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy::graph {
namespace {

// The op's own name when the caller gave none.
absl::string_view NameOr(absl::string_view name, HloOpcode opcode) {
  return name.empty() ? HloOpcodeString(opcode) : name;
}

NodePtr Make(std::unique_ptr<HloInstruction> proto, std::vector<NodePtr> operands,
             absl::string_view name, std::vector<ScalarComputation> computations = {}) {
  Node::Options options;
  options.metadata = NameScope::MetadataFor(name);
  return Node::MakeOp(std::move(proto), std::move(operands), std::move(computations),
                      std::move(options));
}

// A shape error, prefixed with where the op was recorded.
absl::Status InContext(const absl::Status& status, absl::string_view name) {
  const std::string op_name = NameScope::MetadataFor(name).op_name;
  return absl::Status(status.code(), absl::StrCat(op_name, ": ", status.message()));
}

template <typename T>
absl::StatusOr<T> InContext(absl::StatusOr<T> result, absl::string_view name) {
  if (result.ok()) return result;
  return InContext(result.status(), name);
}

std::vector<const Shape*> ShapesOf(absl::Span<const NodePtr> nodes) {
  std::vector<const Shape*> shapes;
  shapes.reserve(nodes.size());
  for (const NodePtr& n : nodes) shapes.push_back(&n->shape());
  return shapes;
}

// The identity of `kind` for `type`: 0 for add, the lowest value for max,
// the highest for min.
double IdentityOf(ScalarComputation kind, PrimitiveType type) {
  const bool is_float = primitive_util::IsFloatingPointType(type);
  switch (kind) {
    case ScalarComputation::kMax:
      return is_float ? -std::numeric_limits<double>::infinity()
                      : double(std::numeric_limits<int32_t>::lowest());
    case ScalarComputation::kMin:
      return is_float ? std::numeric_limits<double>::infinity()
                      : double(std::numeric_limits<int32_t>::max());
    default:
      return 0;
  }
}

std::unique_ptr<HloInstruction> Proto(HloOpcode opcode, const Shape& shape) {
  return HloInstruction::Create(opcode, shape, {});
}

}  // namespace

NodePtr Constant(Literal value, absl::string_view name) {
  return Make(HloInstruction::CreateConstant(std::move(value)), {}, name);
}

NodePtr ScalarConstant(double value, PrimitiveType type, absl::string_view name) {
  Literal literal(Shape::MakeScalar(type));
  literal.SetFromDouble(0, value);
  return Constant(std::move(literal), name);
}

absl::StatusOr<NodePtr> Full(double value, const Shape& shape, absl::string_view name) {
  NodePtr scalar = ScalarConstant(value, shape.element_type(), name);
  if (shape.rank() == 0) return scalar;
  return Broadcast(scalar, shape.dimensions(), {}, name);
}

absl::StatusOr<NodePtr> Unary(HloOpcode opcode, const NodePtr& x, absl::string_view name) {
  name = NameOr(name, opcode);
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            InContext(ShapeInference::InferUnaryOpShape(opcode, x->shape()), name));
  return Make(Proto(opcode, shape), {x}, name);
}

absl::StatusOr<NodePtr> Binary(HloOpcode opcode, const NodePtr& a, const NodePtr& b,
                               absl::string_view name) {
  name = NameOr(name, opcode);
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferBinaryOpShape(opcode, a->shape(), b->shape()), name));
  return Make(Proto(opcode, shape), {a, b}, name);
}

absl::StatusOr<NodePtr> Compare(const NodePtr& a, const NodePtr& b, ComparisonDirection direction,
                                absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferBinaryOpShape(HloOpcode::kCompare, a->shape(), b->shape()),
                name));
  auto proto = Proto(HloOpcode::kCompare, shape);
  proto->set_comparison_direction(direction);
  return Make(std::move(proto), {a, b}, name);
}

absl::StatusOr<NodePtr> Select(const NodePtr& pred, const NodePtr& on_true,
                               const NodePtr& on_false, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferSelectShape(pred->shape(), on_true->shape(),
                                                 on_false->shape()),
                name));
  return Make(Proto(HloOpcode::kSelect, shape), {pred, on_true, on_false}, name);
}

absl::StatusOr<NodePtr> Convert(const NodePtr& x, PrimitiveType type, absl::string_view name) {
  if (x->shape().element_type() == type) return x;
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            InContext(ShapeInference::InferConvertShape(x->shape(), type), name));
  return Make(Proto(HloOpcode::kConvert, shape), {x}, name);
}

absl::StatusOr<NodePtr> BitcastConvert(const NodePtr& x, PrimitiveType type,
                                       absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferBitcastConvertShape(x->shape(), type), name));
  return Make(Proto(HloOpcode::kBitcastConvert, shape), {x}, name);
}

absl::StatusOr<NodePtr> Broadcast(const NodePtr& x, absl::Span<const int64_t> output_dimensions,
                                  absl::Span<const int64_t> broadcast_dimensions,
                                  absl::string_view name) {
  const Shape output(x->shape().element_type(), output_dimensions);
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferBroadcastShape(x->shape(), output, broadcast_dimensions),
                name));
  auto proto = Proto(HloOpcode::kBroadcast, shape);
  proto->set_dimensions(std::vector<int64_t>(broadcast_dimensions.begin(),
                                             broadcast_dimensions.end()));
  return Make(std::move(proto), {x}, name);
}

absl::StatusOr<NodePtr> Reshape(const NodePtr& x, absl::Span<const int64_t> dimensions,
                                absl::string_view name) {
  if (x->shape().dimensions() == std::vector<int64_t>(dimensions.begin(), dimensions.end())) {
    return x;
  }
  const Shape target(x->shape().element_type(), dimensions);
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            InContext(ShapeInference::InferReshapeShape(x->shape(), target), name));
  return Make(Proto(HloOpcode::kReshape, shape), {x}, name);
}

absl::StatusOr<NodePtr> Transpose(const NodePtr& x, absl::Span<const int64_t> permutation,
                                  absl::string_view name) {
  bool identity = true;
  for (size_t i = 0; i < permutation.size(); ++i) identity &= permutation[i] == int64_t(i);
  if (identity && int64_t(permutation.size()) == x->shape().rank()) return x;
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferTransposeShape(x->shape(), permutation), name));
  auto proto = Proto(HloOpcode::kTranspose, shape);
  proto->set_dimensions(std::vector<int64_t>(permutation.begin(), permutation.end()));
  return Make(std::move(proto), {x}, name);
}

absl::StatusOr<NodePtr> Reverse(const NodePtr& x, absl::Span<const int64_t> dimensions,
                                absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferReverseShape(x->shape(), dimensions), name));
  auto proto = Proto(HloOpcode::kReverse, shape);
  proto->set_dimensions(std::vector<int64_t>(dimensions.begin(), dimensions.end()));
  return Make(std::move(proto), {x}, name);
}

absl::StatusOr<NodePtr> Slice(const NodePtr& x, absl::Span<const int64_t> starts,
                              absl::Span<const int64_t> limits, absl::Span<const int64_t> strides,
                              absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferSliceShape(x->shape(), starts, limits, strides), name));
  auto proto = Proto(HloOpcode::kSlice, shape);
  proto->set_slice({starts.begin(), starts.end()}, {limits.begin(), limits.end()},
                   {strides.begin(), strides.end()});
  return Make(std::move(proto), {x}, name);
}

absl::StatusOr<NodePtr> Concatenate(absl::Span<const NodePtr> xs, int64_t dimension,
                                    absl::string_view name) {
  if (xs.size() == 1) return xs[0];
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferConcatOpShape(ShapesOf(xs), dimension), name));
  auto proto = Proto(HloOpcode::kConcatenate, shape);
  proto->set_dimensions({dimension});
  return Make(std::move(proto), {xs.begin(), xs.end()}, name);
}

absl::StatusOr<NodePtr> Pad(const NodePtr& x, const NodePtr& padding_value,
                            const PaddingConfig& config, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferPadShape(x->shape(), padding_value->shape(), config), name));
  auto proto = Proto(HloOpcode::kPad, shape);
  proto->set_padding_config(config);
  return Make(std::move(proto), {x, padding_value}, name);
}

absl::StatusOr<NodePtr> Iota(const Shape& shape, int64_t dimension, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape result,
                            InContext(ShapeInference::InferIotaShape(shape, dimension), name));
  auto proto = Proto(HloOpcode::kIota, result);
  proto->set_dimensions({dimension});
  return Make(std::move(proto), {}, name);
}

absl::StatusOr<NodePtr> Reduce(const NodePtr& x, absl::Span<const int64_t> dimensions,
                               ScalarComputation kind, absl::string_view name) {
  const PrimitiveType type = x->shape().element_type();
  NodePtr init = ScalarConstant(IdentityOf(kind, type), type, name);
  const Shape* shapes[] = {&x->shape(), &init->shape()};
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferReduceShape(
                                 shapes, dimensions, ScalarComputationProgramShape(kind, type)),
                             name));
  auto proto = Proto(HloOpcode::kReduce, shape);
  proto->set_dimensions({dimensions.begin(), dimensions.end()});
  return Make(std::move(proto), {x, init}, name, {kind});
}

absl::StatusOr<NodePtr> Dot(const NodePtr& lhs, const NodePtr& rhs,
                            const DotDimensionNumbers& dnums,
                            std::optional<PrimitiveType> preferred_type, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferDotOpShape(lhs->shape(), rhs->shape(), dnums, preferred_type),
                name));
  auto proto = Proto(HloOpcode::kDot, shape);
  proto->set_dot_dimension_numbers(dnums);
  return Make(std::move(proto), {lhs, rhs}, name);
}

absl::StatusOr<NodePtr> Convolution(const NodePtr& lhs, const NodePtr& rhs, const Window& window,
                                    const ConvolutionDimensionNumbers& dnums,
                                    std::optional<PrimitiveType> preferred_type,
                                    absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferConvolveShape(lhs->shape(), rhs->shape(), 1, 1, window,
                                                   dnums, preferred_type),
                name));
  auto proto = Proto(HloOpcode::kConvolution, shape);
  proto->set_window(window);
  proto->set_convolution_dimension_numbers(dnums);
  return Make(std::move(proto), {lhs, rhs}, name);
}

absl::StatusOr<NodePtr> ReduceWindow(const NodePtr& x, const Window& window,
                                     ScalarComputation kind, absl::string_view name) {
  const PrimitiveType type = x->shape().element_type();
  NodePtr init = ScalarConstant(IdentityOf(kind, type), type, name);
  const Shape* inputs[] = {&x->shape()};
  const Shape* inits[] = {&init->shape()};
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferReduceWindowShape(
                                 inputs, inits, window, ScalarComputationProgramShape(kind, type)),
                             name));
  auto proto = Proto(HloOpcode::kReduceWindow, shape);
  proto->set_window(window);
  return Make(std::move(proto), {x, init}, name, {kind});
}

absl::StatusOr<NodePtr> SelectAndScatter(const NodePtr& operand, const NodePtr& source,
                                         const Window& window, absl::string_view name) {
  const PrimitiveType type = operand->shape().element_type();
  NodePtr init = ScalarConstant(0, type, name);
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferSelectAndScatterShape(
                    operand->shape(), ScalarComputationProgramShape(ScalarComputation::kGe, type),
                    window, source->shape(), init->shape(),
                    ScalarComputationProgramShape(ScalarComputation::kAdd, type)),
                name));
  auto proto = Proto(HloOpcode::kSelectAndScatter, shape);
  proto->set_window(window);
  return Make(std::move(proto), {operand, source, init}, name,
              {ScalarComputation::kGe, ScalarComputation::kAdd});
}

absl::StatusOr<NodePtr> Gather(const NodePtr& operand, const NodePtr& indices,
                               const GatherDimensionNumbers& dnums,
                               absl::Span<const int64_t> slice_sizes, absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape, InContext(ShapeInference::InferGatherShape(operand->shape(), indices->shape(),
                                                              dnums, slice_sizes),
                             name));
  auto proto = Proto(HloOpcode::kGather, shape);
  proto->set_gather_dimension_numbers(dnums);
  proto->set_slice_sizes({slice_sizes.begin(), slice_sizes.end()});
  return Make(std::move(proto), {operand, indices}, name);
}

absl::StatusOr<NodePtr> ScatterAdd(const NodePtr& operand, const NodePtr& indices,
                                   const NodePtr& updates, const ScatterDimensionNumbers& dnums,
                                   absl::string_view name) {
  const Shape* shapes[] = {&operand->shape(), &indices->shape(), &updates->shape()};
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferScatterShape(
                    shapes,
                    ScalarComputationProgramShape(ScalarComputation::kAdd,
                                                  operand->shape().element_type()),
                    dnums),
                name));
  auto proto = Proto(HloOpcode::kScatter, shape);
  proto->set_scatter_dimension_numbers(dnums);
  return Make(std::move(proto), {operand, indices, updates}, name, {ScalarComputation::kAdd});
}

absl::StatusOr<NodePtr> AllReduce(const NodePtr& x, const ReplicaGroups& groups,
                                  absl::string_view name) {
  const Shape* shapes[] = {&x->shape()};
  SYSTOLIC_ASSIGN_OR_RETURN(Shape shape,
                            InContext(ShapeInference::InferAllReduceShape(shapes), name));
  auto proto = Proto(HloOpcode::kAllReduce, shape);
  proto->set_device_list(CollectiveDeviceList(groups));
  return Make(std::move(proto), {x}, name, {ScalarComputation::kAdd});
}

absl::StatusOr<NodePtr> AllGather(const NodePtr& x, int64_t dimension, const ReplicaGroups& groups,
                                  absl::string_view name) {
  const Shape* shapes[] = {&x->shape()};
  const int64_t shard_count = groups.empty() ? 1 : int64_t(groups[0].size());
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferAllGatherShape(shapes, dimension, shard_count), name));
  auto proto = Proto(HloOpcode::kAllGather, shape);
  proto->set_dimensions({dimension});
  proto->set_device_list(CollectiveDeviceList(groups));
  return Make(std::move(proto), {x}, name);
}

absl::StatusOr<NodePtr> ReduceScatter(const NodePtr& x, int64_t dimension,
                                      const ReplicaGroups& groups, absl::string_view name) {
  const Shape* shapes[] = {&x->shape()};
  const int64_t shard_count = groups.empty() ? 1 : int64_t(groups[0].size());
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferReduceScatterShape(shapes, dimension, shard_count), name));
  auto proto = Proto(HloOpcode::kReduceScatter, shape);
  proto->set_dimensions({dimension});
  proto->set_device_list(CollectiveDeviceList(groups));
  return Make(std::move(proto), {x}, name, {ScalarComputation::kAdd});
}

absl::StatusOr<NodePtr> RngBitGenerator(const NodePtr& state, const Shape& bits_shape,
                                        absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferRngBitGeneratorShape(state->shape(), bits_shape), name));
  auto proto = Proto(HloOpcode::kRngBitGenerator, shape);
  proto->set_random_algorithm(RandomAlgorithm::kThreeFry);
  return Make(std::move(proto), {state}, name);
}

absl::StatusOr<NodePtr> GetTupleElement(const NodePtr& tuple, int64_t index,
                                        absl::string_view name) {
  SYSTOLIC_ASSIGN_OR_RETURN(
      Shape shape,
      InContext(ShapeInference::InferGetTupleElementShape(tuple->shape(), index), name));
  auto proto = Proto(HloOpcode::kGetTupleElement, shape);
  proto->set_tuple_index(index);
  return Make(std::move(proto), {tuple}, name);
}

absl::StatusOr<NodePtr> Sharding(const NodePtr& x, const HloSharding& sharding,
                                 absl::string_view name) {
  if (!x->shape().IsArray()) {
    return InContext(absl::InvalidArgumentError("only arrays can be sharded"), name);
  }
  auto proto = Proto(HloOpcode::kCustomCall, x->shape());
  proto->mutable_custom_call()->target = "Sharding";
  proto->set_sharding(sharding);
  return Make(std::move(proto), {x}, name);
}

namespace {

constexpr char kKernelCallTarget[] = "tpu_custom_call";

std::string FlashAttentionConfig(bool backward, bool causal) {
  return absl::StrCat("{\"kernel\": \"", backward ? "flash_attention_bwd" : "flash_attention",
                      "\", \"causal\": ", causal ? "true" : "false", "}");
}

absl::Status CheckAttentionOperands(const NodePtr& q, const NodePtr& k, const NodePtr& v,
                                    absl::string_view name) {
  const Shape& qs = q->shape();
  const Shape& ks = k->shape();
  if (!qs.IsArray() || qs.rank() != 4 || !primitive_util::IsFloatingPointType(qs.element_type())) {
    return InContext(absl::InvalidArgumentError(absl::StrCat(
                         "q must be floating [batch, heads, sequence, head size], got ",
                         qs.ToString())),
                     name);
  }
  if (!(ks == v->shape()) || ks.rank() != 4 ||
      ks.dimensions(0) != qs.dimensions(0) || ks.dimensions(1) != qs.dimensions(1) ||
      ks.dimensions(3) != qs.dimensions(3) || ks.element_type() != qs.element_type()) {
    return InContext(absl::InvalidArgumentError(absl::StrCat(
                         "k and v must match q's batch, heads, head size and type: q ",
                         qs.ToString(), ", k ", ks.ToString(), ", v ", v->shape().ToString())),
                     name);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<NodePtr> FlashAttention(const NodePtr& q, const NodePtr& k, const NodePtr& v,
                                       bool causal, absl::string_view name) {
  SYSTOLIC_RETURN_IF_ERROR(CheckAttentionOperands(q, k, v, name));
  auto proto = Proto(HloOpcode::kCustomCall, q->shape());
  proto->mutable_custom_call()->target = kKernelCallTarget;
  proto->set_backend_config(FlashAttentionConfig(/*backward=*/false, causal));
  return Make(std::move(proto), {q, k, v}, name);
}

absl::StatusOr<NodePtr> FlashAttentionBackward(const NodePtr& q, const NodePtr& k,
                                               const NodePtr& v, const NodePtr& out,
                                               const NodePtr& cotangent, bool causal,
                                               absl::string_view name) {
  SYSTOLIC_RETURN_IF_ERROR(CheckAttentionOperands(q, k, v, name));
  if (!(q->shape() == k->shape())) {
    return InContext(absl::InvalidArgumentError(
                         "the backward kernel needs q, k and v of one shape (self-attention)"),
                     name);
  }
  std::vector<int64_t> dims = {3};
  dims.insert(dims.end(), q->shape().dimensions().begin(), q->shape().dimensions().end());
  auto proto = Proto(HloOpcode::kCustomCall, Shape(q->shape().element_type(), dims));
  proto->mutable_custom_call()->target = kKernelCallTarget;
  proto->set_backend_config(FlashAttentionConfig(/*backward=*/true, causal));
  return Make(std::move(proto), {q, k, v, out, cotangent}, name);
}

bool IsFlashAttention(const Node& node) {
  return node.opcode() == HloOpcode::kCustomCall &&
         node.proto().custom_call_target() == kKernelCallTarget &&
         absl::StrContains(node.proto().backend_config(), "\"flash_attention\"");
}

bool IsCausalFlashAttention(const Node& node) {
  return IsFlashAttention(node) &&
         absl::StrContains(node.proto().backend_config(), "\"causal\": true");
}

NodePtr StopGradient(const NodePtr& x) {
  Node::Options options;
  options.metadata = x->metadata();
  options.stop_gradient = true;
  if (x->is_data()) {
    return Node::MakeOp(Proto(HloOpcode::kCopy, x->shape()), {x}, {}, std::move(options));
  }
  auto proto = x->proto().CloneWithNewOperands(x->shape(), {});
  return Node::MakeOp(std::move(proto), x->operands(), x->computations(), std::move(options));
}

}  // namespace systolic::lazy::graph
