#include "core/stablehlo/chlo_emitter.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace systolic::stablehlo {

HloInstruction* ChloEmitter::Unary(HloOpcode opcode, HloInstruction* x) {
  return b_.Add(HloInstruction::CreateUnary(x->shape(), opcode, x), op_);
}

HloInstruction* ChloEmitter::Binary(HloOpcode opcode, HloInstruction* x, HloInstruction* y) {
  return b_.Add(HloInstruction::CreateBinary(x->shape(), opcode, x, y), op_);
}

HloInstruction* ChloEmitter::Part(HloOpcode opcode, HloInstruction* x) {
  Shape part = x->shape();
  part.set_element_type(primitive_util::ComplexComponentType(part.element_type()));
  return b_.Add(HloInstruction::CreateUnary(part, opcode, x), op_);
}

HloInstruction* ChloEmitter::MakeComplex(HloInstruction* re, HloInstruction* im,
                                         const Shape& like) {
  return b_.Add(HloInstruction::CreateBinary(like, HloOpcode::kComplex, re, im), op_);
}

HloInstruction* ChloEmitter::Constant(double value, HloInstruction* like) {
  Literal scalar(Shape(like->shape().element_type(), {}));
  scalar.SetFromDouble(0, value);
  HloInstruction* c = b_.Add(HloInstruction::CreateConstant(std::move(scalar)), op_);
  Shape shape = like->shape();
  shape.clear_layout();
  return b_.Add(HloInstruction::CreateBroadcast(shape, c, {}), op_);
}

HloInstruction* ChloEmitter::IntConstant(int64_t value, PrimitiveType type, HloInstruction* like) {
  Literal scalar(Shape(type, {}));
  scalar.SetFromDouble(0, double(value));
  HloInstruction* c = b_.Add(HloInstruction::CreateConstant(std::move(scalar)), op_);
  return b_.Add(HloInstruction::CreateBroadcast(Shape(type, like->shape().dimensions()), c, {}),
                op_);
}

HloInstruction* ChloEmitter::Compare(HloInstruction* x, HloInstruction* y, ComparisonDirection d) {
  Shape s(PRED, x->shape().dimensions());
  return b_.Add(HloInstruction::CreateCompare(s, x, y, d), op_);
}

HloInstruction* ChloEmitter::IsFinite(HloInstruction* x) {
  return b_.Add(HloInstruction::CreateUnary(Shape(PRED, x->shape().dimensions()),
                                            HloOpcode::kIsFinite, x),
                op_);
}

HloInstruction* ChloEmitter::IsInf(HloInstruction* x, int sign) {
  if (sign == 0) {
    return Compare(Unary(HloOpcode::kAbs, x), Constant(INFINITY, x), ComparisonDirection::kEq);
  }
  return Compare(x, Constant(sign * INFINITY, x), ComparisonDirection::kEq);
}

HloInstruction* ChloEmitter::Select(HloInstruction* pred, HloInstruction* on_true,
                                    HloInstruction* on_false) {
  return b_.Add(
      HloInstruction::CreateTernary(on_true->shape(), HloOpcode::kSelect, pred, on_true, on_false),
      op_);
}

HloInstruction* ChloEmitter::Convert(HloInstruction* x, PrimitiveType to) {
  if (x->shape().element_type() == to) return x;
  return b_.Add(HloInstruction::CreateConvert(Shape(to, x->shape().dimensions()), x), op_);
}

HloInstruction* ChloEmitter::BitcastConvert(HloInstruction* x, PrimitiveType to) {
  return b_.Add(HloInstruction::CreateUnary(Shape(to, x->shape().dimensions()),
                                            HloOpcode::kBitcastConvert, x),
                op_);
}

namespace {

// The type a decomposition computes in: f64 stays, other floats use f32.
PrimitiveType ComputeType(PrimitiveType t) { return t == F64 ? F64 : F32; }

}  // namespace

OpConverter ChloElementwise(ChloDecomposition fn) {
  return [fn](ComputationBuilder& b, const mlir::Operation& op,
              const std::vector<HloInstruction*>& ops, const std::vector<Shape>&) -> Results {
    if (ops.size() != 1) return b.Error(op, absl::StrCat(op.name, " takes one operand"));
    ChloEmitter e(b, op);
    return std::vector<HloInstruction*>{fn(e, ops[0])};
  };
}

OpConverter ChloElementwiseFloat(ChloDecomposition fn) {
  return [fn](ComputationBuilder& b, const mlir::Operation& op,
              const std::vector<HloInstruction*>& ops, const std::vector<Shape>&) -> Results {
    if (ops.size() != 1) return b.Error(op, absl::StrCat(op.name, " takes one operand"));
    const PrimitiveType type = ops[0]->shape().element_type();
    if (!primitive_util::IsFloatingPointType(type)) {
      return b.Error(op, absl::StrCat(op.name, " needs a real float operand, not ",
                                      primitive_util::LowercasePrimitiveTypeName(type)));
    }
    ChloEmitter e(b, op);
    HloInstruction* result = fn(e, e.Convert(ops[0], ComputeType(type)));
    return std::vector<HloInstruction*>{e.Convert(result, type)};
  };
}

OpConverter ChloBinaryFloatNative(ChloBinaryDecomposition fn) {
  return [fn](ComputationBuilder& b, const mlir::Operation& op,
              const std::vector<HloInstruction*>& ops, const std::vector<Shape>&) -> Results {
    if (ops.size() != 2 || ops[0]->shape().dimensions() != ops[1]->shape().dimensions() ||
        ops[0]->shape().element_type() != ops[1]->shape().element_type()) {
      return b.Error(op, absl::StrCat(op.name, " takes two operands of one shape"));
    }
    const PrimitiveType type = ops[0]->shape().element_type();
    if (!primitive_util::IsFloatingPointType(type)) {
      return b.Error(op, absl::StrCat(op.name, " needs real float operands, not ",
                                      primitive_util::LowercasePrimitiveTypeName(type)));
    }
    ChloEmitter e(b, op);
    return std::vector<HloInstruction*>{fn(e, ops[0], ops[1])};
  };
}

}  // namespace systolic::stablehlo
