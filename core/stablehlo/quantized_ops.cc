#include "core/stablehlo/quantized_ops.h"

#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/literal.h"
#include "core/stablehlo/chlo_emitter.h"

namespace systolic::stablehlo {
namespace {

using mlir::QuantType;

HloInstruction* ExpressedConstant(ComputationBuilder& b, const mlir::Operation& op, double value,
                                  PrimitiveType type, HloInstruction* like) {
  Literal scalar = *Literal::CreateR0<double>(value).Convert(type);
  HloInstruction* c = b.Add(HloInstruction::CreateConstant(std::move(scalar)), op);
  return b.Add(HloInstruction::CreateBroadcast(Shape(type, like->shape().dimensions()), c, {}), op);
}

// The scales (or zero points) of `q` as a constant of x's shape in the
// expressed type: one value, or one per slice along the quantized axis.
HloInstruction* ParamsLike(ComputationBuilder& b, const mlir::Operation& op, const QuantType& q,
                           bool scales, HloInstruction* x) {
  std::vector<double> values;
  if (scales) {
    values = q.scales;
  } else {
    for (int64_t zp : q.zero_points) values.push_back(double(zp));
  }
  if (!q.per_axis()) return ExpressedConstant(b, op, values[0], q.expressed, x);
  Literal literal = *Literal::CreateR1<double>(values).Convert(q.expressed);
  HloInstruction* vector = b.Add(HloInstruction::CreateConstant(std::move(literal)), op);
  return b.Add(HloInstruction::CreateBroadcast(Shape(q.expressed, x->shape().dimensions()), vector, {q.axis}),
               op);
}

// (stored - zero_point) * scale, in the expressed type.
HloInstruction* Dequantize(ComputationBuilder& b, const mlir::Operation& op, HloInstruction* x,
                           const QuantType& q) {
  ChloEmitter e(b, op);
  HloInstruction* stored = e.Convert(x, q.expressed);
  HloInstruction* shifted = e.Sub(stored, ParamsLike(b, op, q, /*scales=*/false, x));
  return e.Mul(shifted, ParamsLike(b, op, q, /*scales=*/true, x));
}

// clamp(round_half_even(x / scale + zero_point)) as the storage type.
HloInstruction* Quantize(ComputationBuilder& b, const mlir::Operation& op, HloInstruction* x,
                         const QuantType& q) {
  ChloEmitter e(b, op);
  if (x->shape().element_type() != q.expressed) x = e.Convert(x, q.expressed);
  HloInstruction* scaled = e.Div(x, ParamsLike(b, op, q, /*scales=*/true, x));
  HloInstruction* shifted = e.Add(scaled, ParamsLike(b, op, q, /*scales=*/false, x));
  HloInstruction* rounded = e.Unary(HloOpcode::kRoundNearestEven, shifted);
  HloInstruction* low = ExpressedConstant(b, op, double(q.storage_min), q.expressed, rounded);
  HloInstruction* high = ExpressedConstant(b, op, double(q.storage_max), q.expressed, rounded);
  HloInstruction* clamped = b.Add(
      HloInstruction::CreateTernary(rounded->shape(), HloOpcode::kClamp, low, rounded, high), op);
  return e.Convert(clamped, q.storage);
}

Results ConvertUniformQuantize(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
                               const Shapes& shapes) {
  if (ops.size() != 1 || op.result_types.size() != 1 || !op.result_types[0].quant) {
    return b.Error(op, "stablehlo.uniform_quantize takes one operand and gives one quantized tensor");
  }
  HloInstruction* x = ops[0];
  if (const QuantType* from = b.QuantOf(x)) {
    x = Dequantize(b, op, x, *from);  // requantize: through the real values
  } else if (!primitive_util::IsFloatingPointType(x->shape().element_type())) {
    return b.Error(op, absl::StrCat("stablehlo.uniform_quantize of ", x->shape().ToString(),
                                    ": the operand must be a float or quantized tensor"));
  }
  return std::vector<HloInstruction*>{Quantize(b, op, x, *op.result_types[0].quant)};
}

Results ConvertUniformDequantize(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
                                 const Shapes& shapes) {
  const QuantType* from = ops.size() == 1 ? b.QuantOf(ops[0]) : nullptr;
  if (from == nullptr || shapes.size() != 1) {
    return b.Error(op, "stablehlo.uniform_dequantize takes one quantized tensor");
  }
  HloInstruction* real = Dequantize(b, op, ops[0], *from);
  if (shapes[0].element_type() != from->expressed) real = ChloEmitter(b, op).Convert(real, shapes[0].element_type());
  return std::vector<HloInstruction*>{real};
}

// Ops that pass quantized values through as they are stored, or handle
// them themselves.
bool KeepsStoredValues(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
      "stablehlo.uniform_quantize", "stablehlo.uniform_dequantize", "stablehlo.constant",
      "stablehlo.bitcast_convert",  "stablehlo.tuple",              "stablehlo.get_tuple_element",
      "stablehlo.optimization_barrier", "func.call", "stablehlo.while", "stablehlo.if",
      "stablehlo.case"};
  for (absl::string_view n : kNames) {
    if (n == name) return true;
  }
  return absl::StartsWith(name, "check.");
}

}  // namespace

void AddQuantizedConverters(absl::flat_hash_map<std::string, OpConverter>* converters) {
  (*converters)["stablehlo.uniform_quantize"] = ConvertUniformQuantize;
  (*converters)["stablehlo.uniform_dequantize"] = ConvertUniformDequantize;
}

bool NeedsExpressedType(const ComputationBuilder& b, const mlir::Operation& op, const Operands& operands) {
  if (KeepsStoredValues(op.name)) return false;
  for (const mlir::Type& type : op.result_types) {
    if (type.quant) return true;
  }
  for (const HloInstruction* operand : operands) {
    if (b.QuantOf(operand) != nullptr) return true;
  }
  return false;
}

Results ConvertThroughExpressedType(ComputationBuilder& b, const mlir::Operation& op, const Operands& operands,
                                    const Shapes& shapes, const OpConverter& converter) {
  if (!op.regions.empty()) {
    return b.Error(op, absl::StrCat(op.name, " on quantized tensors is not supported (an op with regions)"));
  }
  Operands real;
  for (HloInstruction* operand : operands) {
    const QuantType* q = b.QuantOf(operand);
    real.push_back(q ? Dequantize(b, op, operand, *q) : operand);
  }
  Shapes real_shapes = shapes;
  for (size_t i = 0; i < real_shapes.size() && i < op.result_types.size(); ++i) {
    if (op.result_types[i].quant) real_shapes[i].set_element_type(op.result_types[i].quant->expressed);
  }
  absl::StatusOr<std::vector<HloInstruction*>> results = converter(b, op, real, real_shapes);
  if (!results.ok()) return results.status();
  for (size_t i = 0; i < results->size() && i < op.result_types.size(); ++i) {
    if (op.result_types[i].quant) (*results)[i] = Quantize(b, op, (*results)[i], *op.result_types[i].quant);
  }
  return results;
}

}  // namespace systolic::stablehlo
