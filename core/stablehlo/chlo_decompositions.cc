#include "core/stablehlo/chlo_decompositions.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/stablehlo/chlo_emitter.h"
#include "core/stablehlo/chlo_special_functions.h"

namespace systolic::stablehlo {
namespace {

// chlo.broadcast_*: operands broadcast to the result shape (numpy rules or
// explicit broadcast_dimensions), then the HLO binary op.
OpConverter Broadcasting(HloOpcode opcode) {
  return [opcode](ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
                  const Shapes& shapes) -> Results {
    if (ops.size() != 2 || shapes.size() != 1) {
      return b.Error(op, absl::StrCat(op.name, " takes two operands and has one result"));
    }
    const Shape& result = shapes[0];
    std::vector<int64_t> explicit_dims;
    if (const mlir::Attribute* a = op.Attr("broadcast_dimensions")) {
      auto ints = a->AsInts();
      if (ints.ok()) explicit_dims = *ints;
    }
    Operands expanded;
    for (size_t k = 0; k < 2; ++k) {
      HloInstruction* x = ops[k];
      if (x->shape().dimensions() == result.dimensions()) {
        expanded.push_back(x);
        continue;
      }
      std::vector<int64_t> dims;
      int64_t rank = x->shape().rank();
      if (!explicit_dims.empty() && rank < result.rank() && int64_t(explicit_dims.size()) == rank) {
        dims = explicit_dims;
      } else {
        for (int64_t i = 0; i < rank; ++i) dims.push_back(result.rank() - rank + i);
      }
      // Size-1 dimensions that grow are dropped first (numpy broadcasting).
      std::vector<int64_t> kept_dims, kept_sizes;
      for (int64_t i = 0; i < rank; ++i) {
        if (x->shape().dimensions(i) == result.dimensions(dims[i])) {
          kept_dims.push_back(dims[i]);
          kept_sizes.push_back(x->shape().dimensions(i));
        } else if (x->shape().dimensions(i) != 1) {
          return b.Error(op, absl::StrCat(op.name, ": cannot broadcast ", x->shape().ToString(),
                                          " to ", result.ToString()));
        }
      }
      if (int64_t(kept_dims.size()) != rank) {
        x = b.Add(HloInstruction::CreateReshape(Shape(x->shape().element_type(), kept_sizes), x),
                  op);
      }
      Shape target(x->shape().element_type(), result.dimensions());
      expanded.push_back(b.Add(HloInstruction::CreateBroadcast(target, x, kept_dims), op));
    }
    if (opcode == HloOpcode::kCompare) {
      std::string direction;
      if (const mlir::Attribute* d = op.Attr("comparison_direction")) direction = d->text;
      auto dir = StringToComparisonDirection(direction);
      if (!dir) return b.Error(op, "chlo.broadcast_compare needs comparison_direction");
      return std::vector<HloInstruction*>{
          b.Add(HloInstruction::CreateCompare(result, expanded[0], expanded[1], *dir), op)};
    }
    return std::vector<HloInstruction*>{
        b.Add(HloInstruction::CreateBinary(result, opcode, expanded[0], expanded[1]), op)};
  };
}

Results TopK(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
             const Shapes& shapes) {
  const mlir::Attribute* k = op.Attr("k");
  if (!k || k->kind != mlir::Attribute::Kind::kInteger || ops.size() != 1 || shapes.size() != 2) {
    return b.Error(op, "chlo.top_k needs one operand, k and two results");
  }
  auto instr = HloInstruction::Create(HloOpcode::kTopK, Shape::MakeTuple(shapes), ops);
  instr->set_k(k->int_value);
  instr->set_largest(true);
  HloInstruction* topk = b.Add(std::move(instr), op);
  return std::vector<HloInstruction*>{b.Add(HloInstruction::CreateGetTupleElement(topk, 0), op),
                                      b.Add(HloInstruction::CreateGetTupleElement(topk, 1), op)};
}

Results ConstantLike(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
                     const Shapes& shapes) {
  const mlir::Attribute* value = op.Attr("value");
  if (!value || ops.size() != 1) return b.Error(op, "chlo.constant_like needs a value and an operand");
  double v = value->kind == mlir::Attribute::Kind::kFloat ? value->float_value
                                                          : double(value->int_value);
  ChloEmitter e(b, op);
  return std::vector<HloInstruction*>{e.Constant(v, ops[0])};
}

// The high half of the double-width product of two integers. Up to 32 bits
// the product fits a 64-bit integer; 64-bit operands are split into 32-bit
// halves (schoolbook), and a signed high half is the unsigned one less b for
// a negative a and a for a negative b (mod 2^64).
HloInstruction* UnsignedMulHi64(ChloEmitter& e, HloInstruction* a, HloInstruction* b) {
  HloInstruction* low_mask = e.IntConstant(0xFFFFFFFF, U64, a);
  HloInstruction* shift = e.IntConstant(32, U64, a);
  auto low = [&](HloInstruction* x) { return e.Binary(HloOpcode::kAnd, x, low_mask); };
  auto high = [&](HloInstruction* x) { return e.Binary(HloOpcode::kShiftRightLogical, x, shift); };
  HloInstruction* lo_lo = e.Mul(low(a), low(b));
  HloInstruction* hi_lo = e.Mul(high(a), low(b));
  HloInstruction* lo_hi = e.Mul(low(a), high(b));
  HloInstruction* hi_hi = e.Mul(high(a), high(b));
  HloInstruction* cross = e.Add(e.Add(high(lo_lo), low(hi_lo)), low(lo_hi));
  return e.Add(e.Add(hi_hi, high(hi_lo)), e.Add(high(lo_hi), high(cross)));
}

Results MulHi(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
              const Shapes&) {
  if (ops.size() != 2 || ops[0]->shape() != ops[1]->shape()) {
    return b.Error(op, "chlo.mulhi takes two integer operands of one shape");
  }
  const PrimitiveType type = ops[0]->shape().element_type();
  if (!primitive_util::IsIntegralType(type)) {
    return b.Error(op, absl::StrCat("chlo.mulhi needs integer operands, not ",
                                    primitive_util::LowercasePrimitiveTypeName(type)));
  }
  const bool is_signed = primitive_util::IsSignedIntegralType(type);
  const int width = primitive_util::BitWidth(type);
  ChloEmitter e(b, op);
  if (width <= 32) {
    const PrimitiveType wide = is_signed ? S64 : U64;
    HloInstruction* product = e.Mul(e.Convert(ops[0], wide), e.Convert(ops[1], wide));
    HloInstruction* high = e.Binary(
        is_signed ? HloOpcode::kShiftRightArithmetic : HloOpcode::kShiftRightLogical, product,
        e.IntConstant(width, wide, product));
    return std::vector<HloInstruction*>{e.Convert(high, type)};
  }
  HloInstruction* high = UnsignedMulHi64(e, e.Convert(ops[0], U64), e.Convert(ops[1], U64));
  if (is_signed) {
    HloInstruction* zero = e.IntConstant(0, S64, ops[0]);
    auto correction = [&](HloInstruction* x, HloInstruction* other) {
      return e.Convert(e.Select(e.Compare(x, zero, ComparisonDirection::kLt), other, zero), U64);
    };
    high = e.Sub(e.Sub(high, correction(ops[0], ops[1])), correction(ops[1], ops[0]));
  }
  return std::vector<HloInstruction*>{e.Convert(high, type)};
}

}  // namespace

HloInstruction* EmitSquare(ChloEmitter& e, HloInstruction* x) {
  if (!primitive_util::IsComplexType(x->shape().element_type())) return e.Mul(x, x);
  HloInstruction* a = e.Part(HloOpcode::kReal, x);
  HloInstruction* b = e.Part(HloOpcode::kImag, x);
  HloInstruction* same_magnitude =
      e.Binary(HloOpcode::kAnd,
               e.Compare(e.Unary(HloOpcode::kAbs, a), e.Unary(HloOpcode::kAbs, b),
                         ComparisonDirection::kEq),
               e.IsFinite(a));
  HloInstruction* re =
      e.Select(same_magnitude, e.Constant(0, a), e.Mul(e.Sub(a, b), e.Add(a, b)));
  HloInstruction* im = e.Mul(e.Constant(2, a), e.Mul(a, b));
  return e.MakeComplex(re, im, x->shape());
}

void AddChloConverters(absl::flat_hash_map<std::string, OpConverter>* converters) {
  auto& m = *converters;
  const std::pair<const char*, HloOpcode> binary[] = {
      {"add", HloOpcode::kAdd},          {"subtract", HloOpcode::kSubtract},
      {"multiply", HloOpcode::kMultiply}, {"divide", HloOpcode::kDivide},
      {"maximum", HloOpcode::kMaximum},  {"minimum", HloOpcode::kMinimum},
      {"remainder", HloOpcode::kRemainder}, {"power", HloOpcode::kPower},
      {"atan2", HloOpcode::kAtan2},      {"and", HloOpcode::kAnd},
      {"or", HloOpcode::kOr},            {"xor", HloOpcode::kXor},
      {"complex", HloOpcode::kComplex},  {"shift_left", HloOpcode::kShiftLeft},
      {"shift_right_arithmetic", HloOpcode::kShiftRightArithmetic},
      {"shift_right_logical", HloOpcode::kShiftRightLogical},
      {"compare", HloOpcode::kCompare},
  };
  for (const auto& [name, opcode] : binary) m[absl::StrCat("chlo.broadcast_", name)] = Broadcasting(opcode);
  m["chlo.erf"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) { return e.Unary(HloOpcode::kErf, x); });
  m["chlo.erfc"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    return e.Binary(HloOpcode::kSubtract, e.Constant(1, x), e.Unary(HloOpcode::kErf, x));
  });
  m["chlo.tan"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) { return e.Unary(HloOpcode::kTan, x); });
  m["chlo.square"] = ChloElementwise(EmitSquare);
  m["chlo.conj"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) -> HloInstruction* {
    if (!primitive_util::IsComplexType(x->shape().element_type())) return x;
    return e.MakeComplex(e.Part(HloOpcode::kReal, x),
                         e.Unary(HloOpcode::kNegate, e.Part(HloOpcode::kImag, x)), x->shape());
  });
  // (e^x - e^-x) / 2 and (e^x + e^-x) / 2
  m["chlo.sinh"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    HloInstruction* d = e.Binary(HloOpcode::kSubtract, e.Unary(HloOpcode::kExp, x),
                                 e.Unary(HloOpcode::kExp, e.Unary(HloOpcode::kNegate, x)));
    return e.Binary(HloOpcode::kMultiply, d, e.Constant(0.5, x));
  });
  m["chlo.cosh"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    HloInstruction* s = e.Binary(HloOpcode::kAdd, e.Unary(HloOpcode::kExp, x),
                                 e.Unary(HloOpcode::kExp, e.Unary(HloOpcode::kNegate, x)));
    return e.Binary(HloOpcode::kMultiply, s, e.Constant(0.5, x));
  });
  // asin(x) = atan2(x, sqrt(1 - x^2)), acos(x) = atan2(sqrt(1 - x^2), x)
  auto one_minus_square_root = [](ChloEmitter& e, HloInstruction* x) {
    return e.Unary(HloOpcode::kSqrt, e.Binary(HloOpcode::kSubtract, e.Constant(1, x),
                                              e.Binary(HloOpcode::kMultiply, x, x)));
  };
  m["chlo.asin"] = ChloElementwise([one_minus_square_root](ChloEmitter& e, HloInstruction* x) {
    return e.Binary(HloOpcode::kAtan2, x, one_minus_square_root(e, x));
  });
  m["chlo.acos"] = ChloElementwise([one_minus_square_root](ChloEmitter& e, HloInstruction* x) {
    return e.Binary(HloOpcode::kAtan2, one_minus_square_root(e, x), x);
  });
  m["chlo.atan"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    return e.Binary(HloOpcode::kAtan2, x, e.Constant(1, x));
  });
  // asinh(x) = log(x + sqrt(x^2 + 1)), acosh(x) = log(x + sqrt(x^2 - 1)),
  // atanh(x) = log((1 + x) / (1 - x)) / 2
  m["chlo.asinh"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    HloInstruction* r = e.Unary(HloOpcode::kSqrt, e.Binary(HloOpcode::kAdd, e.Binary(HloOpcode::kMultiply, x, x),
                                                          e.Constant(1, x)));
    return e.Unary(HloOpcode::kLog, e.Binary(HloOpcode::kAdd, x, r));
  });
  m["chlo.acosh"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    HloInstruction* r = e.Unary(HloOpcode::kSqrt, e.Binary(HloOpcode::kSubtract,
                                                          e.Binary(HloOpcode::kMultiply, x, x),
                                                          e.Constant(1, x)));
    return e.Unary(HloOpcode::kLog, e.Binary(HloOpcode::kAdd, x, r));
  });
  m["chlo.atanh"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) {
    HloInstruction* ratio = e.Binary(HloOpcode::kDivide, e.Binary(HloOpcode::kAdd, e.Constant(1, x), x),
                                     e.Binary(HloOpcode::kSubtract, e.Constant(1, x), x));
    return e.Binary(HloOpcode::kMultiply, e.Unary(HloOpcode::kLog, ratio), e.Constant(0.5, x));
  });
  m["chlo.is_inf"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) { return e.IsInf(x, 0); });
  m["chlo.is_pos_inf"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) { return e.IsInf(x, 1); });
  m["chlo.is_neg_inf"] = ChloElementwise([](ChloEmitter& e, HloInstruction* x) { return e.IsInf(x, -1); });
  m["chlo.top_k"] = TopK;
  m["chlo.constant_like"] = ConstantLike;
  m["chlo.mulhi"] = MulHi;
  AddChloSpecialFunctions(converters);
}

}  // namespace systolic::stablehlo
