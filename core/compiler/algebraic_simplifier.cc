#include "core/compiler/algebraic_simplifier.h"

#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>

#include "absl/algorithm/container.h"
#include "core/compiler/hlo_creation_utils.h"
#include "core/compiler/provenance.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// --- Constants -----------------------------------------------------------------

// The literal of a constant (seen through broadcasts) whose elements are all
// the same, bit for bit; its element 0 is the value.
const Literal* UniformConstant(const HloInstruction* instr) {
  while (instr->opcode() == HloOpcode::kBroadcast) instr = instr->operand(0);
  if (instr->opcode() != HloOpcode::kConstant || !instr->has_literal()) return nullptr;
  const Literal& l = instr->literal();
  if (!l.shape().IsArray() || l.element_count() == 0 || !l.IsAllSame()) return nullptr;
  return &l;
}

bool IsIntegralOrPred(PrimitiveType t) { return t == PRED || primitive_util::IsIntegralType(t); }

bool IsZeroValue(const Literal* l) { return l != nullptr && l->IsZero(0); }

bool IsNegativeZero(const Literal* l) {
  return IsZeroValue(l) && primitive_util::IsFloatingPointType(l->element_type()) &&
         std::signbit(l->GetAsDouble(0));
}

bool IsOneValue(const Literal* l) {
  if (l == nullptr) return false;
  PrimitiveType t = l->element_type();
  if (primitive_util::IsComplexType(t)) return l->GetAsComplex128(0) == complex128(1, 0);
  if (primitive_util::IsFloatingPointType(t)) return l->GetAsDouble(0) == 1.0;
  return l->GetAsInt64(0) == 1;
}

// Every bit set: `true` for pred, -1 for signed integers, the maximum for
// unsigned ones (the identity of `and`).
bool IsAllOnesValue(const Literal* l) {
  if (l == nullptr) return false;
  PrimitiveType t = l->element_type();
  if (t == PRED) return l->GetAsInt64(0) != 0;
  if (!primitive_util::IsIntegralType(t)) return false;
  const int bits = primitive_util::BitWidth(t);
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
  return (static_cast<uint64_t>(l->GetAsInt64(0)) & mask) == mask;
}

// Element 0 of `l` as a scalar literal.
Literal ScalarOf(const Literal& l) {
  Literal scalar(Shape::MakeScalar(l.element_type()));
  std::memcpy(scalar.untyped_data(), l.untyped_data(), primitive_util::ByteWidth(l.element_type()));
  return scalar;
}

std::optional<bool> CompareScalars(const Literal& a, const Literal& b, ComparisonDirection dir,
                                   ComparisonType type) {
  if (type == ComparisonType::kFloatTotalOrder) return std::nullopt;
  auto decide = [dir](auto x, auto y) -> bool {
    switch (dir) {
      case ComparisonDirection::kEq: return x == y;
      case ComparisonDirection::kNe: return x != y;
      case ComparisonDirection::kGe: return x >= y;
      case ComparisonDirection::kGt: return x > y;
      case ComparisonDirection::kLe: return x <= y;
      case ComparisonDirection::kLt: return x < y;
    }
    return false;
  };
  PrimitiveType t = a.element_type();
  if (primitive_util::IsComplexType(t)) {
    if (dir == ComparisonDirection::kEq) return a.GetAsComplex128(0) == b.GetAsComplex128(0);
    if (dir == ComparisonDirection::kNe) return a.GetAsComplex128(0) != b.GetAsComplex128(0);
    return std::nullopt;
  }
  if (primitive_util::IsFloatingPointType(t)) return decide(a.GetAsDouble(0), b.GetAsDouble(0));
  if (primitive_util::IsUnsignedIntegralType(t)) {
    return decide(static_cast<uint64_t>(a.GetAsInt64(0)), static_cast<uint64_t>(b.GetAsInt64(0)));
  }
  return decide(a.GetAsInt64(0), b.GetAsInt64(0));
}

// --- Conversions -----------------------------------------------------------------

// Every value of `from` is exactly a value of `to`.
bool ConvertIsLossless(PrimitiveType from, PrimitiveType to) {
  if (from == to || from == PRED) return true;
  if (to == PRED || primitive_util::IsComplexType(from) || primitive_util::IsComplexType(to)) {
    return false;
  }
  const bool from_int = primitive_util::IsIntegralType(from);
  const bool to_int = primitive_util::IsIntegralType(to);
  const int from_bits = primitive_util::BitWidth(from);
  const int to_bits = primitive_util::BitWidth(to);
  if (from_int && to_int) {
    const bool from_signed = primitive_util::IsSignedIntegralType(from);
    const bool to_signed = primitive_util::IsSignedIntegralType(to);
    if (from_signed == to_signed) return to_bits >= from_bits;
    return !from_signed && to_signed && to_bits > from_bits;
  }
  if (from_int) {
    // Integers up to the significand's precision are exact.
    const int value_bits = primitive_util::IsSignedIntegralType(from) ? from_bits - 1 : from_bits;
    return !to_int && primitive_util::SignificandWidth(to) >= value_bits;
  }
  if (to_int) return false;
  // Float to float: only into the standard types, with at least the range,
  // the precision, infinities and a negative zero.
  if (to != F16 && to != BF16 && to != F32 && to != F64) return false;
  return primitive_util::ExponentWidth(to) >= primitive_util::ExponentWidth(from) &&
         primitive_util::SignificandWidth(to) >= primitive_util::SignificandWidth(from) &&
         (!primitive_util::HasInfinity(from) || primitive_util::HasInfinity(to)) &&
         (!primitive_util::HasNegativeZero(from) || primitive_util::HasNegativeZero(to));
}

// --- Reducers --------------------------------------------------------------------

// The opcode of a reducer `(x, y) -> op(x, y)` over scalars, if it is one of
// the simple commutative ones.
std::optional<HloOpcode> ReducerOpcode(const HloComputation* reducer) {
  if (reducer == nullptr || reducer->num_parameters() != 2) return std::nullopt;
  const HloInstruction* root = reducer->root_instruction();
  switch (root->opcode()) {
    case HloOpcode::kAdd:
    case HloOpcode::kMultiply:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
      break;
    default:
      return std::nullopt;
  }
  if (!root->shape().IsScalar()) return std::nullopt;
  const HloInstruction* p0 = reducer->parameter_instruction(0);
  const HloInstruction* p1 = reducer->parameter_instruction(1);
  if ((root->operand(0) == p0 && root->operand(1) == p1) ||
      (root->operand(0) == p1 && root->operand(1) == p0)) {
    return root->opcode();
  }
  return std::nullopt;
}

std::vector<int64_t> Iota(int64_t begin, int64_t end) {
  std::vector<int64_t> v(end - begin);
  std::iota(v.begin(), v.end(), begin);
  return v;
}

// `value` broadcast to `dims` (operand dimension i to result dimension
// `mapping[i]`), or `value` itself when that changes nothing.
absl::StatusOr<HloInstruction*> BroadcastIfNeeded(HloInstruction* value,
                                                  absl::Span<const int64_t> mapping,
                                                  absl::Span<const int64_t> dims) {
  bool identity = value->shape().rank() == int64_t(dims.size());
  for (size_t i = 0; identity && i < mapping.size(); ++i) identity = mapping[i] == int64_t(i);
  if (identity && absl::c_equal(value->shape().dimensions(), dims)) return value;
  return MakeBroadcastHlo(value, mapping, dims);
}

bool IsIdentityPermutation(absl::Span<const int64_t> p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != int64_t(i)) return false;
  }
  return true;
}

// --- The visitor -------------------------------------------------------------------

class Simplifier {
 public:
  Simplifier(const AlgebraicSimplifierOptions& options, PassRunLog* log)
      : options_(options), log_(log) {}

  absl::StatusOr<bool> RunOnComputation(HloComputation* computation);

 private:
  absl::StatusOr<bool> Visit(HloInstruction* instr);
  absl::StatusOr<bool> HandleAdd(HloInstruction* add);
  absl::StatusOr<bool> HandleSubtract(HloInstruction* sub);
  absl::StatusOr<bool> HandleMultiply(HloInstruction* mul);
  absl::StatusOr<bool> HandleDivide(HloInstruction* div);
  absl::StatusOr<bool> HandleAndOr(HloInstruction* instr);
  absl::StatusOr<bool> HandleNegate(HloInstruction* neg);
  absl::StatusOr<bool> HandleAbs(HloInstruction* abs);
  absl::StatusOr<bool> HandleConvert(HloInstruction* convert);
  absl::StatusOr<bool> HandleReshape(HloInstruction* reshape);
  absl::StatusOr<bool> HandleTranspose(HloInstruction* transpose);
  absl::StatusOr<bool> HandleBroadcast(HloInstruction* broadcast);
  absl::StatusOr<bool> HandleSlice(HloInstruction* slice);
  absl::StatusOr<bool> HandleConcatenate(HloInstruction* concat);
  absl::StatusOr<bool> HandlePad(HloInstruction* pad);
  absl::StatusOr<bool> HandleCopy(HloInstruction* copy);
  absl::StatusOr<bool> HandleReduce(HloInstruction* reduce);
  absl::StatusOr<bool> HandleDot(HloInstruction* dot);
  absl::StatusOr<bool> HandleSelect(HloInstruction* select);
  absl::StatusOr<bool> HandleCompare(HloInstruction* compare);
  absl::StatusOr<bool> TrySinkReshapeOrTranspose(HloInstruction* instr);

  // Replaces `old` by `replacement` if their shapes agree (layouts too when
  // layout sensitive); what the rewrite created inherits `old`'s provenance.
  absl::StatusOr<bool> Replace(HloInstruction* old, HloInstruction* replacement,
                               const std::string& rewrite, bool changes_numerics = false);
  bool SameShape(const Shape& a, const Shape& b) const;
  // Rewrites that build new instructions are off once layouts are assigned.
  bool MayCreate() const { return !options_.is_layout_sensitive; }

  const AlgebraicSimplifierOptions& options_;
  PassRunLog* log_;
  int64_t first_new_id_ = 0;
};

bool Simplifier::SameShape(const Shape& a, const Shape& b) const {
  if (!options_.is_layout_sensitive) return ShapeInference::Compatible(a, b);
  if (!(a == b)) return false;
  return !a.IsArray() || a.has_layout() == b.has_layout();
}

absl::StatusOr<bool> Simplifier::Replace(HloInstruction* old, HloInstruction* replacement,
                                         const std::string& rewrite, bool changes_numerics) {
  if (!SameShape(old->shape(), replacement->shape())) return false;
  AdoptProvenance(replacement, first_new_id_, *old);
  SYSTOLIC_RETURN_IF_ERROR(old->parent()->ReplaceInstruction(old, replacement));
  log_->CountRewrite(rewrite, changes_numerics);
  return true;
}

absl::StatusOr<bool> Simplifier::RunOnComputation(HloComputation* computation) {
  bool changed = false;
  HloModule* module = computation->parent();
  // Operands first; a rewrite removes only the instruction and operands it
  // leaves dead, which were visited already.
  for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
    first_new_id_ = module->next_unique_id();
    SYSTOLIC_ASSIGN_OR_RETURN(bool rewritten, Visit(instr));
    changed |= rewritten;
  }
  return changed;
}

absl::StatusOr<bool> Simplifier::Visit(HloInstruction* instr) {
  absl::StatusOr<bool> done = false;
  switch (instr->opcode()) {
    case HloOpcode::kAdd: done = HandleAdd(instr); break;
    case HloOpcode::kSubtract: done = HandleSubtract(instr); break;
    case HloOpcode::kMultiply: done = HandleMultiply(instr); break;
    case HloOpcode::kDivide: done = HandleDivide(instr); break;
    case HloOpcode::kAnd:
    case HloOpcode::kOr: done = HandleAndOr(instr); break;
    case HloOpcode::kNegate: done = HandleNegate(instr); break;
    case HloOpcode::kAbs: done = HandleAbs(instr); break;
    case HloOpcode::kConvert: done = HandleConvert(instr); break;
    case HloOpcode::kReshape: done = HandleReshape(instr); break;
    case HloOpcode::kTranspose: done = HandleTranspose(instr); break;
    case HloOpcode::kBroadcast: done = HandleBroadcast(instr); break;
    case HloOpcode::kSlice: done = HandleSlice(instr); break;
    case HloOpcode::kConcatenate: done = HandleConcatenate(instr); break;
    case HloOpcode::kPad: done = HandlePad(instr); break;
    case HloOpcode::kCopy: done = HandleCopy(instr); break;
    case HloOpcode::kReduce: done = HandleReduce(instr); break;
    case HloOpcode::kDot: done = HandleDot(instr); break;
    case HloOpcode::kSelect: done = HandleSelect(instr); break;
    case HloOpcode::kCompare: done = HandleCompare(instr); break;
    default: break;
  }
  if (!done.ok() || *done) return done;
  return TrySinkReshapeOrTranspose(instr);
}

// --- Arithmetic identities -----------------------------------------------------------

absl::StatusOr<bool> Simplifier::HandleAdd(HloInstruction* add) {
  HloInstruction* lhs = add->mutable_operand(0);
  HloInstruction* rhs = add->mutable_operand(1);
  const bool integral = IsIntegralOrPred(add->shape().element_type());
  // x + (-0) is x for every x; x + (+0) turns -0 into +0. XLA folds both.
  if (const Literal* c = UniformConstant(rhs); IsZeroValue(c)) {
    return Replace(add, lhs, "add(A, 0) => A", !integral && !IsNegativeZero(c));
  }
  if (const Literal* c = UniformConstant(lhs); IsZeroValue(c)) {
    return Replace(add, rhs, "add(0, A) => A", !integral && !IsNegativeZero(c));
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleSubtract(HloInstruction* sub) {
  HloInstruction* lhs = sub->mutable_operand(0);
  HloInstruction* rhs = sub->mutable_operand(1);
  const bool integral = IsIntegralOrPred(sub->shape().element_type());
  // x - (+0) is x for every x; x - (-0) turns -0 into +0.
  if (const Literal* c = UniformConstant(rhs); IsZeroValue(c)) {
    return Replace(sub, lhs, "subtract(A, 0) => A", !integral && IsNegativeZero(c));
  }
  // Not for floats: inf - inf and NaN - NaN are NaN.
  if (lhs == rhs && integral && MayCreate()) {
    HloInstruction* zero = MakeScalarLike(sub, 0);
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * zeros,
                              BroadcastIfNeeded(zero, {}, sub->shape().dimensions()));
    return Replace(sub, zeros, "subtract(A, A) => 0 (integers)");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleMultiply(HloInstruction* mul) {
  HloInstruction* lhs = mul->mutable_operand(0);
  HloInstruction* rhs = mul->mutable_operand(1);
  if (IsOneValue(UniformConstant(rhs))) return Replace(mul, lhs, "multiply(A, 1) => A");
  if (IsOneValue(UniformConstant(lhs))) return Replace(mul, rhs, "multiply(1, A) => A");
  // Not for floats: NaN * 0 and inf * 0 are NaN, -x * 0 is -0.
  if (IsIntegralOrPred(mul->shape().element_type())) {
    if (IsZeroValue(UniformConstant(rhs))) return Replace(mul, rhs, "multiply(A, 0) => 0 (integers)");
    if (IsZeroValue(UniformConstant(lhs))) return Replace(mul, lhs, "multiply(0, A) => 0 (integers)");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleDivide(HloInstruction* div) {
  if (IsOneValue(UniformConstant(div->operand(1)))) {
    return Replace(div, div->mutable_operand(0), "divide(A, 1) => A");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleAndOr(HloInstruction* instr) {
  HloInstruction* lhs = instr->mutable_operand(0);
  HloInstruction* rhs = instr->mutable_operand(1);
  const bool is_and = instr->opcode() == HloOpcode::kAnd;
  const std::string op = is_and ? "and" : "or";
  if (lhs == rhs) return Replace(instr, lhs, op + "(A, A) => A");
  const Literal* lc = UniformConstant(lhs);
  const Literal* rc = UniformConstant(rhs);
  // The identity: all ones for and, zero for or.
  auto identity = [&](const Literal* c) { return is_and ? IsAllOnesValue(c) : IsZeroValue(c); };
  // The absorbing element: zero for and, all ones for or.
  auto absorbing = [&](const Literal* c) { return is_and ? IsZeroValue(c) : IsAllOnesValue(c); };
  const std::string identity_name = is_and ? "true" : "false";
  const std::string absorbing_name = is_and ? "false" : "true";
  if (identity(rc)) return Replace(instr, lhs, op + "(A, " + identity_name + ") => A");
  if (identity(lc)) return Replace(instr, rhs, op + "(" + identity_name + ", A) => A");
  if (absorbing(rc)) {
    return Replace(instr, rhs, op + "(A, " + absorbing_name + ") => " + absorbing_name);
  }
  if (absorbing(lc)) {
    return Replace(instr, lhs, op + "(" + absorbing_name + ", A) => " + absorbing_name);
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleNegate(HloInstruction* neg) {
  if (neg->operand(0)->opcode() == HloOpcode::kNegate) {
    return Replace(neg, neg->mutable_operand(0)->mutable_operand(0), "negate(negate(A)) => A");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleAbs(HloInstruction* abs) {
  if (abs->operand(0)->opcode() == HloOpcode::kAbs) {
    return Replace(abs, abs->mutable_operand(0), "abs(abs(A)) => abs(A)");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleConvert(HloInstruction* convert) {
  HloInstruction* operand = convert->mutable_operand(0);
  const PrimitiveType to = convert->shape().element_type();
  if (operand->shape().element_type() == to) {
    return Replace(convert, operand, "convert(A) to A's type => A");
  }
  if (operand->opcode() != HloOpcode::kConvert) return false;
  HloInstruction* source = operand->mutable_operand(0);
  const PrimitiveType from = source->shape().element_type();
  if (!ConvertIsLossless(from, operand->shape().element_type())) return false;
  if (from == to) return Replace(convert, source, "convert(convert(A)) => A (lossless inner convert)");
  if (!MayCreate()) return false;
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct, MakeConvertToHlo(source, to));
  return Replace(convert, direct, "convert(convert(A)) => convert(A) (lossless inner convert)");
}

// --- Data movement ------------------------------------------------------------------

absl::StatusOr<bool> Simplifier::HandleReshape(HloInstruction* reshape) {
  HloInstruction* operand = reshape->mutable_operand(0);
  if (operand->shape().dimensions() == reshape->shape().dimensions()) {
    SYSTOLIC_ASSIGN_OR_RETURN(bool done, Replace(reshape, operand, "reshape(A) to A's shape => A"));
    if (done) return true;
  }
  if (!MayCreate()) return false;
  if (operand->opcode() == HloOpcode::kReshape) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct,
                              MakeReshapeHlo(reshape->shape().dimensions(), operand->mutable_operand(0)));
    return Replace(reshape, direct, "reshape(reshape(A)) => reshape(A)");
  }
  if (operand->opcode() == HloOpcode::kBroadcast && operand->operand(0)->shape().IsScalar()) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct,
                              MakeBroadcastHlo(operand->mutable_operand(0), {},
                                               reshape->shape().dimensions()));
    return Replace(reshape, direct, "reshape(broadcast(scalar)) => broadcast(scalar)");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleTranspose(HloInstruction* transpose) {
  HloInstruction* operand = transpose->mutable_operand(0);
  if (IsIdentityPermutation(transpose->dimensions())) {
    return Replace(transpose, operand, "transpose(A) by the identity => A");
  }
  if (operand->opcode() != HloOpcode::kTranspose) return false;
  // Result dimension i is the inner result's dimension outer[i], which is
  // the source's dimension inner[outer[i]].
  std::vector<int64_t> composed;
  for (int64_t d : transpose->dimensions()) composed.push_back(operand->dimensions(d));
  HloInstruction* source = operand->mutable_operand(0);
  if (IsIdentityPermutation(composed)) {
    return Replace(transpose, source, "transpose(transpose(A)) => A (inverse permutations)");
  }
  if (!MayCreate()) return false;
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct, MakeTransposeHlo(source, composed));
  return Replace(transpose, direct, "transpose(transpose(A)) => transpose(A)");
}

absl::StatusOr<bool> Simplifier::HandleBroadcast(HloInstruction* broadcast) {
  HloInstruction* operand = broadcast->mutable_operand(0);
  if (operand->shape().dimensions() == broadcast->shape().dimensions() &&
      IsIdentityPermutation(broadcast->dimensions())) {
    return Replace(broadcast, operand, "broadcast(A) to A's shape => A");
  }
  if (operand->opcode() != HloOpcode::kBroadcast || !MayCreate()) return false;
  std::vector<int64_t> composed;
  for (int64_t d : operand->dimensions()) composed.push_back(broadcast->dimensions(d));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct,
                            MakeBroadcastHlo(operand->mutable_operand(0), composed,
                                             broadcast->shape().dimensions()));
  return Replace(broadcast, direct, "broadcast(broadcast(A)) => broadcast(A)");
}

absl::StatusOr<bool> Simplifier::HandleSlice(HloInstruction* slice) {
  HloInstruction* operand = slice->mutable_operand(0);
  bool whole = true;
  for (int64_t i = 0; i < slice->shape().rank(); ++i) {
    whole &= slice->slice_starts()[i] == 0 &&
             slice->slice_limits()[i] == operand->shape().dimensions(i) &&
             slice->slice_strides()[i] == 1;
  }
  if (whole) return Replace(slice, operand, "slice(A) of all of A => A");
  if (operand->opcode() != HloOpcode::kSlice || !MayCreate()) return false;
  std::vector<int64_t> starts, limits, strides;
  for (int64_t i = 0; i < slice->shape().rank(); ++i) {
    const int64_t start = operand->slice_starts()[i] + slice->slice_starts()[i] * operand->slice_strides()[i];
    const int64_t stride = operand->slice_strides()[i] * slice->slice_strides()[i];
    const int64_t size = slice->shape().dimensions(i);
    starts.push_back(start);
    strides.push_back(stride);
    limits.push_back(size == 0 ? start : start + (size - 1) * stride + 1);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * direct,
                            MakeSliceHlo(operand->mutable_operand(0), starts, limits, strides));
  return Replace(slice, direct, "slice(slice(A)) => slice(A)");
}

absl::StatusOr<bool> Simplifier::HandleConcatenate(HloInstruction* concat) {
  if (concat->operand_count() == 1) {
    return Replace(concat, concat->mutable_operand(0), "concatenate(A) => A");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandlePad(HloInstruction* pad) {
  for (const PaddingDimension& d : pad->padding_config().dimensions) {
    if (d.edge_padding_low != 0 || d.edge_padding_high != 0 || d.interior_padding != 0) {
      return false;
    }
  }
  return Replace(pad, pad->mutable_operand(0), "pad(A) by nothing => A");
}

absl::StatusOr<bool> Simplifier::HandleCopy(HloInstruction* copy) {
  HloInstruction* operand = copy->mutable_operand(0);
  // Without layouts a copy does nothing; with them, only a copy to the same
  // layout does nothing.
  SYSTOLIC_ASSIGN_OR_RETURN(bool done, Replace(copy, operand, "copy(A) => A"));
  if (done) return true;
  if (operand->opcode() == HloOpcode::kCopy) {
    HloInstruction* source = operand->mutable_operand(0);
    SYSTOLIC_ASSIGN_OR_RETURN(bool back, Replace(copy, source, "copy(copy(A)) => A (back to A's layout)"));
    if (back) return true;
    HloInstruction* direct = copy->parent()->AddInstruction(
        HloInstruction::CreateUnary(copy->shape(), HloOpcode::kCopy, operand->mutable_operand(0)));
    return Replace(copy, direct, "copy(copy(A)) => copy(A)");
  }
  return false;
}

// --- Reductions and contractions -------------------------------------------------------

absl::StatusOr<bool> Simplifier::HandleReduce(HloInstruction* reduce) {
  if (reduce->operand_count() != 2 || !MayCreate()) return false;
  std::optional<HloOpcode> op = ReducerOpcode(reduce->to_apply());
  if (!op) return false;
  HloInstruction* input = reduce->mutable_operand(0);
  HloInstruction* init = reduce->mutable_operand(1);
  const PrimitiveType type = reduce->shape().element_type();
  if (input->shape().element_type() != type ||
      reduce->to_apply()->root_instruction()->shape().element_type() != type) {
    return false;
  }
  const auto& out_dims = reduce->shape().dimensions();

  // Nothing is combined: each output element is reducer(init, element).
  bool trivial = true;
  for (int64_t d : reduce->dimensions()) trivial &= input->shape().dimensions(d) == 1;
  if (trivial) {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * inits,
                              BroadcastIfNeeded(init, {}, input->shape().dimensions()));
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * applied, MakeBinaryHlo(*op, inits, input));
    if (applied->shape().dimensions() != out_dims) {
      SYSTOLIC_ASSIGN_OR_RETURN(applied, MakeReshapeHlo(out_dims, applied));
    }
    return Replace(reduce, applied,
                   reduce->dimensions().empty() ? "reduce over no dimensions => reducer(init, A)"
                                                : "reduce over size-1 dimensions => reducer(init, A)");
  }

  // reduce(broadcast(A)) over dimensions the broadcast added: every reduced
  // element equals A's element.
  if (input->opcode() != HloOpcode::kBroadcast || *op == HloOpcode::kMultiply ||
      (type == PRED && *op == HloOpcode::kAdd)) {
    return false;
  }
  const std::vector<int64_t>& bdims = input->dimensions();
  int64_t count = 1;
  for (int64_t d : reduce->dimensions()) {
    if (absl::c_linear_search(bdims, d)) return false;
    count *= input->shape().dimensions(d);
  }
  if (count == 0) return false;
  HloInstruction* value = input->mutable_operand(0);
  bool inexact = false;
  if (*op == HloOpcode::kAdd && count != 1) {
    HloInstruction* n = MakeScalarLike(value, double(count));
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * ns,
                              BroadcastIfNeeded(n, {}, value->shape().dimensions()));
    SYSTOLIC_ASSIGN_OR_RETURN(value, MakeBinaryHlo(HloOpcode::kMultiply, value, ns));
    // n * x rounds once; the sum rounds n - 1 times.
    inexact = primitive_util::IsFloatingPointType(type) || primitive_util::IsComplexType(type);
  }
  std::vector<int64_t> mapped;
  for (int64_t d : bdims) {
    int64_t removed_before = 0;
    for (int64_t r : reduce->dimensions()) removed_before += r < d ? 1 : 0;
    mapped.push_back(d - removed_before);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * spread, BroadcastIfNeeded(value, mapped, out_dims));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * inits, BroadcastIfNeeded(init, {}, out_dims));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * applied, MakeBinaryHlo(*op, inits, spread));
  return Replace(reduce, applied,
                 *op == HloOpcode::kAdd ? "reduce-add(broadcast(A)) => A * count"
                                        : "reduce(broadcast(A)) => reducer(init, A)",
                 inexact);
}

absl::StatusOr<bool> Simplifier::HandleDot(HloInstruction* dot) {
  if (!options_.enable_dot_strength_reduction || !MayCreate() || dot->operand_count() != 2) {
    return false;
  }
  const PrimitiveType type = dot->shape().element_type();
  if (type == PRED) return false;
  const DotDimensionNumbers& d = dot->dot_dimension_numbers();
  HloInstruction* lhs = dot->mutable_operand(0);
  HloInstruction* rhs = dot->mutable_operand(1);
  auto free_dims = [](const Shape& s, const std::vector<int64_t>& batch,
                      const std::vector<int64_t>& contracting) {
    std::vector<int64_t> free;
    for (int64_t i = 0; i < s.rank(); ++i) {
      if (!absl::c_linear_search(batch, i) && !absl::c_linear_search(contracting, i)) {
        free.push_back(i);
      }
    }
    return free;
  };
  const std::vector<int64_t> lhs_free =
      free_dims(lhs->shape(), d.lhs_batch_dimensions, d.lhs_contracting_dimensions);
  const std::vector<int64_t> rhs_free =
      free_dims(rhs->shape(), d.rhs_batch_dimensions, d.rhs_contracting_dimensions);
  int64_t contraction = 1;
  for (int64_t c : d.lhs_contracting_dimensions) contraction *= lhs->shape().dimensions(c);
  // A real matrix product stays a dot (the MXU's job).
  if (contraction != 1 && !lhs_free.empty() && !rhs_free.empty()) return false;

  const int64_t b = int64_t(d.lhs_batch_dimensions.size());
  const int64_t lf = int64_t(lhs_free.size()), rf = int64_t(rhs_free.size());
  const int64_t c = int64_t(d.lhs_contracting_dimensions.size());
  // The product space: batch, lhs free, rhs free, contracting.
  std::vector<int64_t> product;
  for (int64_t i : d.lhs_batch_dimensions) product.push_back(lhs->shape().dimensions(i));
  for (int64_t i : lhs_free) product.push_back(lhs->shape().dimensions(i));
  for (int64_t i : rhs_free) product.push_back(rhs->shape().dimensions(i));
  for (int64_t i : d.lhs_contracting_dimensions) product.push_back(lhs->shape().dimensions(i));

  auto place = [&](HloInstruction* operand, const std::vector<int64_t>& batch,
                   const std::vector<int64_t>& free, const std::vector<int64_t>& contracting,
                   int64_t free_offset) -> absl::StatusOr<HloInstruction*> {
    SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * x, MakeConvertToHlo(operand, type));
    std::vector<int64_t> perm = batch;
    perm.insert(perm.end(), free.begin(), free.end());
    perm.insert(perm.end(), contracting.begin(), contracting.end());
    if (!IsIdentityPermutation(perm)) {
      SYSTOLIC_ASSIGN_OR_RETURN(x, MakeTransposeHlo(x, perm));
    }
    std::vector<int64_t> dims = Iota(0, b);
    for (int64_t i = 0; i < int64_t(free.size()); ++i) dims.push_back(free_offset + i);
    for (int64_t i = 0; i < c; ++i) dims.push_back(b + lf + rf + i);
    if (x->shape().dimensions() == product && IsIdentityPermutation(dims)) return x;
    return MakeBroadcastHlo(x, dims, product);
  };
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * l, place(lhs, d.lhs_batch_dimensions, lhs_free,
                                                      d.lhs_contracting_dimensions, b));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * r, place(rhs, d.rhs_batch_dimensions, rhs_free,
                                                      d.rhs_contracting_dimensions, b + lf));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * result, MakeBinaryHlo(HloOpcode::kMultiply, l, r));
  const auto& out_dims = dot->shape().dimensions();
  std::string rewrite;
  if (c == 0) {
    rewrite = "dot without contraction => multiply";
  } else if (contraction == 1) {
    SYSTOLIC_ASSIGN_OR_RETURN(result, MakeReshapeHlo(out_dims, result));
    rewrite = "dot with a contraction of size 1 => multiply";
  } else {
    HloComputation* add = MakeScalarComputation(dot->GetModule(), HloOpcode::kAdd, type);
    SYSTOLIC_ASSIGN_OR_RETURN(result, MakeReduceHlo(result, MakeScalarLike(dot, 0),
                                                    Iota(b + lf + rf, b + lf + rf + c), add));
    rewrite = "dot with a side without free dimensions => multiply + reduce";
  }
  // The summation order (and the sign of a zero sum) may differ from the dot's.
  return Replace(dot, result, rewrite, /*changes_numerics=*/true);
}

// --- Selection and comparison -------------------------------------------------------

absl::StatusOr<bool> Simplifier::HandleSelect(HloInstruction* select) {
  HloInstruction* on_true = select->mutable_operand(1);
  HloInstruction* on_false = select->mutable_operand(2);
  if (on_true == on_false) return Replace(select, on_true, "select(P, A, A) => A");
  if (const Literal* p = UniformConstant(select->operand(0))) {
    return p->IsZero(0) ? Replace(select, on_false, "select(false, A, B) => B")
                        : Replace(select, on_true, "select(true, A, B) => A");
  }
  return false;
}

absl::StatusOr<bool> Simplifier::HandleCompare(HloInstruction* compare) {
  if (!MayCreate()) return false;
  const HloInstruction* lhs = compare->operand(0);
  const HloInstruction* rhs = compare->operand(1);
  std::optional<bool> value;
  std::string rewrite;
  const Literal* lc = UniformConstant(lhs);
  const Literal* rc = UniformConstant(rhs);
  if (lc != nullptr && rc != nullptr) {
    value = CompareScalars(*lc, *rc, compare->comparison_direction(), compare->comparison_type());
    rewrite = "compare(constant, constant) => constant";
  } else if (lhs == rhs && IsIntegralOrPred(lhs->shape().element_type())) {
    // Not for floats: NaN != NaN.
    ComparisonDirection dir = compare->comparison_direction();
    value = dir == ComparisonDirection::kEq || dir == ComparisonDirection::kGe ||
            dir == ComparisonDirection::kLe;
    rewrite = "compare(A, A) => constant (integers)";
  }
  if (!value) return false;
  HloInstruction* scalar =
      MakeScalarConstant(compare->parent(), Literal::CreateR0<bool>(*value));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * result,
                            BroadcastIfNeeded(scalar, {}, compare->shape().dimensions()));
  return Replace(compare, result, rewrite);
}

// --- Sinking ------------------------------------------------------------------------

absl::StatusOr<bool> Simplifier::TrySinkReshapeOrTranspose(HloInstruction* instr) {
  if (!options_.enable_sinking || !MayCreate() || !instr->IsElementwise() ||
      instr->operand_count() == 0 || instr->HasSideEffect() || !instr->shape().IsArray()) {
    return false;
  }
  const HloInstruction* mover = nullptr;
  for (const HloInstruction* op : instr->operands()) {
    if (op->opcode() == HloOpcode::kReshape || op->opcode() == HloOpcode::kTranspose) {
      if (op->user_count() != 1) return false;  // it would stay anyway
      if (mover == nullptr) {
        mover = op;
      } else if (op->opcode() != mover->opcode() ||
                 op->operand(0)->shape().dimensions() != mover->operand(0)->shape().dimensions() ||
                 op->dimensions() != mover->dimensions()) {
        return false;
      }
    } else if (op->shape().rank() != 0 && UniformConstant(op) == nullptr) {
      return false;
    }
  }
  if (mover == nullptr) return false;
  const std::vector<int64_t>& source_dims = mover->operand(0)->shape().dimensions();
  std::vector<HloInstruction*> operands;
  for (HloInstruction* op : instr->operands()) {
    if (op->opcode() == mover->opcode()) {
      operands.push_back(op->mutable_operand(0));
    } else if (op->shape().rank() == 0 && instr->shape().rank() != 0) {
      operands.push_back(op);  // select's predicate or clamp's bounds may be scalars
    } else if (op->shape().rank() == 0) {
      SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * spread, MakeBroadcastHlo(op, {}, source_dims));
      operands.push_back(spread);
    } else {
      HloInstruction* scalar = MakeScalarConstant(instr->parent(), ScalarOf(*UniformConstant(op)));
      SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * spread, MakeBroadcastHlo(scalar, {}, source_dims));
      operands.push_back(spread);
    }
  }
  Shape shape(instr->shape().element_type(), source_dims);
  MaybeGiveLayout(&shape, instr->shape());
  auto clone = instr->CloneWithNewOperands(shape, operands);
  clone->SetName(instr->GetModule()->UniqueName(instr->name()));
  HloInstruction* moved = instr->parent()->AddInstruction(std::move(clone));
  HloInstruction* result;
  std::string rewrite;
  if (mover->opcode() == HloOpcode::kReshape) {
    SYSTOLIC_ASSIGN_OR_RETURN(result, MakeReshapeHlo(instr->shape().dimensions(), moved));
    rewrite = "elementwise(reshape(A), ...) => reshape(elementwise(A, ...))";
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(result, MakeTransposeHlo(moved, mover->dimensions()));
    rewrite = "elementwise(transpose(A), ...) => transpose(elementwise(A, ...))";
  }
  return Replace(instr, result, rewrite);
}

}  // namespace

absl::StatusOr<bool> AlgebraicSimplifier::Run(HloModule* module) {
  Simplifier simplifier(options_, &run_log());
  bool changed = false;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation()) continue;
    SYSTOLIC_ASSIGN_OR_RETURN(bool c, simplifier.RunOnComputation(computation));
    changed |= c;
  }
  return changed;
}

}  // namespace systolic
