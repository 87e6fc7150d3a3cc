// Emits the elementwise HLO that CHLO ops decompose into: every instruction
// carries the source op's location, and constants broadcast to the shape of
// the value they combine with.
#pragma once

#include <functional>
#include <vector>

#include "core/hlo/comparison.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

class ChloEmitter {
 public:
  ChloEmitter(ComputationBuilder& b, const mlir::Operation& op) : b_(b), op_(op) {}

  HloInstruction* Unary(HloOpcode opcode, HloInstruction* x);
  HloInstruction* Binary(HloOpcode opcode, HloInstruction* x, HloInstruction* y);
  HloInstruction* Add(HloInstruction* x, HloInstruction* y) { return Binary(HloOpcode::kAdd, x, y); }
  HloInstruction* Sub(HloInstruction* x, HloInstruction* y) {
    return Binary(HloOpcode::kSubtract, x, y);
  }
  HloInstruction* Mul(HloInstruction* x, HloInstruction* y) {
    return Binary(HloOpcode::kMultiply, x, y);
  }
  HloInstruction* Div(HloInstruction* x, HloInstruction* y) {
    return Binary(HloOpcode::kDivide, x, y);
  }
  // real / imag of a complex x: its component type.
  HloInstruction* Part(HloOpcode opcode, HloInstruction* x);
  // The complex number re + i·im, of the complex type `like` has.
  HloInstruction* MakeComplex(HloInstruction* re, HloInstruction* im, const Shape& like);
  // A constant of x's element type broadcast to x's shape.
  HloInstruction* Constant(double value, HloInstruction* like);
  // An integer constant of `type` broadcast to the dimensions of `like`.
  HloInstruction* IntConstant(int64_t value, PrimitiveType type, HloInstruction* like);
  HloInstruction* Compare(HloInstruction* x, HloInstruction* y, ComparisonDirection d);
  HloInstruction* IsFinite(HloInstruction* x);
  // x == +-inf (sign 0), x == +inf (sign 1) or x == -inf (sign -1).
  HloInstruction* IsInf(HloInstruction* x, int sign = 0);
  HloInstruction* Select(HloInstruction* pred, HloInstruction* on_true, HloInstruction* on_false);
  HloInstruction* Convert(HloInstruction* x, PrimitiveType to);
  HloInstruction* BitcastConvert(HloInstruction* x, PrimitiveType to);

 private:
  ComputationBuilder& b_;
  const mlir::Operation& op_;
};

// An elementwise decomposition. Through ChloElementwiseFloat it sees f32 or
// f64 (narrower floats are computed in f32 and rounded back, as XLA's CHLO
// lowering does).
using ChloDecomposition = std::function<HloInstruction*(ChloEmitter&, HloInstruction*)>;
using ChloBinaryDecomposition =
    std::function<HloInstruction*(ChloEmitter&, HloInstruction*, HloInstruction*)>;

// Converters for ops of one operand (any type), one real float operand
// (computed in f32 / f64), and two real float operands of one shape at their
// own type (for ops on the bits, such as next_after).
OpConverter ChloElementwise(ChloDecomposition fn);
OpConverter ChloElementwiseFloat(ChloDecomposition fn);
OpConverter ChloBinaryFloatNative(ChloBinaryDecomposition fn);

}  // namespace systolic::stablehlo
