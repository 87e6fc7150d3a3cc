#include "core/stablehlo/bitcast_convert_ops.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/comparison.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/literal.h"
#include "core/stablehlo/chlo_emitter.h"

namespace systolic::stablehlo {
namespace {

PrimitiveType UnsignedOfWidth(int bits) {
  switch (bits) {
    case 8: return U8;
    case 16: return U16;
    case 32: return U32;
    case 64: return U64;
    default: return PRIMITIVE_TYPE_INVALID;
  }
}

// The unsigned constant [0, 1, ..., n-1] or [1, 2, 4, ...], of `type`.
HloInstruction* BitConstant(ComputationBuilder& b, const mlir::Operation& op, PrimitiveType type,
                            int64_t n, bool powers) {
  std::vector<uint64_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[size_t(i)] = powers ? uint64_t{1} << i : uint64_t(i);
  Literal literal = Literal::CreateR1<uint64_t>(values);
  absl::StatusOr<Literal> converted = literal.Convert(type);
  return b.Add(HloInstruction::CreateConstant(*std::move(converted)), op);
}

HloInstruction* Bitcast(ComputationBuilder& b, const mlir::Operation& op, HloInstruction* x,
                        PrimitiveType to) {
  if (x->shape().element_type() == to) return x;
  return b.Add(HloInstruction::CreateUnary(Shape(to, x->shape().dimensions()),
                                           HloOpcode::kBitcastConvert, x),
               op);
}

// i1[..., W] -> a W-bit type: bit k is element k.
Results PackBits(ComputationBuilder& b, const mlir::Operation& op, HloInstruction* bits,
                 const Shape& result) {
  const int width = primitive_util::BitWidth(result.element_type());
  const PrimitiveType word = UnsignedOfWidth(width);
  const Shape& in = bits->shape();
  if (word == PRIMITIVE_TYPE_INVALID || in.rank() != result.rank() + 1 ||
      in.dimensions(in.rank() - 1) != width) {
    return b.Error(op, absl::StrCat("bitcast_convert from ", in.ToString(), " to ",
                                    result.ToString(), " changes the number of bits"));
  }
  HloInstruction* as_words =
      b.Add(HloInstruction::CreateConvert(Shape(word, in.dimensions()), bits), op);
  DotDimensionNumbers dnums;
  dnums.lhs_contracting_dimensions = {in.rank() - 1};
  dnums.rhs_contracting_dimensions = {0};
  // The bits do not overlap, so their sum is their union.
  HloInstruction* packed = b.Add(
      HloInstruction::CreateDot(Shape(word, result.dimensions()), as_words,
                                BitConstant(b, op, word, width, /*powers=*/true), dnums),
      op);
  return std::vector<HloInstruction*>{Bitcast(b, op, packed, result.element_type())};
}

// A W-bit type -> i1[..., W].
Results UnpackBits(ComputationBuilder& b, const mlir::Operation& op, HloInstruction* x,
                   const Shape& result) {
  const int width = primitive_util::BitWidth(x->shape().element_type());
  const PrimitiveType word = UnsignedOfWidth(width);
  const Shape& in = x->shape();
  if (word == PRIMITIVE_TYPE_INVALID || result.rank() != in.rank() + 1 ||
      result.dimensions(result.rank() - 1) != width) {
    return b.Error(op, absl::StrCat("bitcast_convert from ", in.ToString(), " to ",
                                    result.ToString(), " changes the number of bits"));
  }
  const Shape words(word, result.dimensions());
  std::vector<int64_t> leading(size_t(in.rank()));
  for (int64_t i = 0; i < in.rank(); ++i) leading[size_t(i)] = i;
  HloInstruction* spread =
      b.Add(HloInstruction::CreateBroadcast(words, Bitcast(b, op, x, word), leading), op);
  HloInstruction* shifts = b.Add(
      HloInstruction::CreateBroadcast(words, BitConstant(b, op, word, width, /*powers=*/false),
                                      {in.rank()}),
      op);
  ChloEmitter emit(b, op);
  HloInstruction* shifted = emit.Binary(HloOpcode::kShiftRightLogical, spread, shifts);
  HloInstruction* bit = emit.Binary(HloOpcode::kAnd, shifted, emit.IntConstant(1, word, shifted));
  return std::vector<HloInstruction*>{
      emit.Compare(bit, emit.IntConstant(0, word, bit), ComparisonDirection::kNe)};
}

Results ConvertBitcastConvert(ComputationBuilder& b, const mlir::Operation& op, const Operands& ops,
                              const Shapes& shapes) {
  if (ops.size() != 1 || shapes.size() != 1 || !shapes[0].IsArray()) {
    return b.Error(op, absl::StrCat(op.name, " takes one operand and has one array result"));
  }
  const PrimitiveType from = ops[0]->shape().element_type(), to = shapes[0].element_type();
  if (from == PRED && to != PRED) return PackBits(b, op, ops[0], shapes[0]);
  if (to == PRED && from != PRED) return UnpackBits(b, op, ops[0], shapes[0]);
  return std::vector<HloInstruction*>{
      b.Add(HloInstruction::CreateUnary(shapes[0], HloOpcode::kBitcastConvert, ops[0]), op)};
}

}  // namespace

void AddBitcastConvertConverter(absl::flat_hash_map<std::string, OpConverter>* converters) {
  (*converters)["stablehlo.bitcast_convert"] = ConvertBitcastConvert;
}

}  // namespace systolic::stablehlo
