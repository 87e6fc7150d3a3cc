#include "tests/support/random_program_generator.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_creation_utils.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {
namespace {

// The value of a StatusOr the generator built correctly by construction;
// nullptr if not (the step is then skipped).
HloInstruction* OrNull(absl::StatusOr<HloInstruction*> s) { return s.ok() ? *s : nullptr; }

bool IsFloat(const HloInstruction* a) { return a->shape().element_type() == F32; }

std::vector<int64_t> AllDimensions(int64_t rank) {
  std::vector<int64_t> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

}  // namespace

RandomProgramGenerator::RandomProgramGenerator(uint64_t seed, RandomProgramOptions options)
    : rng_(seed), options_(options) {}

int64_t RandomProgramGenerator::Uniform(int64_t lo, int64_t hi) {
  return lo + int64_t(rng_() % uint64_t(hi - lo + 1));
}

bool RandomProgramGenerator::Chance(double p) {
  return double(rng_() % 1000000) < p * 1000000.0;
}

Shape RandomProgramGenerator::RandomShape(PrimitiveType type) {
  std::vector<int64_t> dims(Uniform(0, options_.max_rank));
  for (int64_t& d : dims) d = Uniform(1, options_.max_dimension);
  return Shape(type, dims);
}

HloInstruction* RandomProgramGenerator::NewParameter(const Shape& shape) {
  const int64_t n = next_parameter_++;
  return entry_->AddParameter(HloInstruction::CreateParameter(n, shape, absl::StrCat("p", n)));
}

HloInstruction* RandomProgramGenerator::ScalarConstant(PrimitiveType type, double value) {
  Literal literal(Shape::MakeScalar(type));
  if (type == F32) {
    literal.SetFromDouble(0, value);
  } else {
    literal.SetFromInt64(0, int64_t(value));
  }
  return entry_->AddInstruction(HloInstruction::CreateConstant(std::move(literal)));
}

HloInstruction* RandomProgramGenerator::Splat(PrimitiveType type, double value,
                                              const std::vector<int64_t>& dims) {
  HloInstruction* c = ScalarConstant(type, value);
  if (dims.empty()) return c;
  return OrNull(MakeBroadcastHlo(c, {}, dims));
}

HloInstruction* RandomProgramGenerator::Pick() {
  // Mostly recent values (deep chains), sometimes any earlier one (fan-out).
  const int64_t n = int64_t(values_.size());
  if (Chance(0.75)) return values_[n - 1 - Uniform(0, std::min<int64_t>(n, 6) - 1)];
  return values_[Uniform(0, n - 1)];
}

HloInstruction* RandomProgramGenerator::SameShape(HloInstruction* a) {
  const int64_t n = int64_t(values_.size());
  for (int64_t i = n - 1; i >= 0 && i >= n - 24; --i) {
    if (values_[i] != a && values_[i]->shape() == a->shape() && Chance(0.6)) return values_[i];
  }
  if (Chance(0.5)) return NewParameter(a->shape());
  return Splat(a->shape().element_type(), double(Uniform(-3, 3)), a->shape().dimensions());
}

HloInstruction* RandomProgramGenerator::Unary(HloInstruction* a) {
  static const HloOpcode kFloat[] = {HloOpcode::kNegate, HloOpcode::kAbs,   HloOpcode::kTanh,
                                     HloOpcode::kSin,    HloOpcode::kFloor, HloOpcode::kSign,
                                     HloOpcode::kCos};
  static const HloOpcode kInt[] = {HloOpcode::kNegate, HloOpcode::kAbs, HloOpcode::kNot};
  if (a->shape().element_type() == PRED) return OrNull(MakeUnaryHlo(HloOpcode::kNot, a));
  HloOpcode op = IsFloat(a) ? kFloat[Uniform(0, 6)] : kInt[Uniform(0, 2)];
  return OrNull(MakeUnaryHlo(op, a));
}

HloInstruction* RandomProgramGenerator::Binary(HloInstruction* a) {
  static const HloOpcode kFloat[] = {HloOpcode::kAdd, HloOpcode::kSubtract, HloOpcode::kMultiply,
                                     HloOpcode::kMaximum, HloOpcode::kMinimum, HloOpcode::kDivide};
  static const HloOpcode kInt[] = {HloOpcode::kAdd,     HloOpcode::kSubtract, HloOpcode::kMultiply,
                                   HloOpcode::kMaximum, HloOpcode::kMinimum,  HloOpcode::kAnd,
                                   HloOpcode::kOr,      HloOpcode::kXor};
  static const HloOpcode kPred[] = {HloOpcode::kAnd, HloOpcode::kOr, HloOpcode::kXor};
  const PrimitiveType type = a->shape().element_type();
  HloInstruction* b = SameShape(a);
  if (b == nullptr) return nullptr;
  HloOpcode op = type == F32   ? kFloat[Uniform(0, 5)]
                 : type == PRED ? kPred[Uniform(0, 2)]
                                : kInt[Uniform(0, 7)];
  if (op == HloOpcode::kDivide) {
    // Keep the divisor away from zero: 1 + |b|.
    HloInstruction* abs = OrNull(MakeUnaryHlo(HloOpcode::kAbs, b));
    HloInstruction* one = Splat(type, 1, a->shape().dimensions());
    if (abs == nullptr || one == nullptr) return nullptr;
    b = OrNull(MakeBinaryHlo(HloOpcode::kAdd, abs, one));
    if (b == nullptr) return nullptr;
    return OrNull(MakeBinaryHlo(op, a, b));  // the safe divisor stays on the right
  }
  return Chance(0.5) ? OrNull(MakeBinaryHlo(op, a, b)) : OrNull(MakeBinaryHlo(op, b, a));
}

HloInstruction* RandomProgramGenerator::Select(HloInstruction* a) {
  if (a->shape().element_type() == PRED) return nullptr;
  HloInstruction* b = SameShape(a);
  if (b == nullptr) return nullptr;
  static const ComparisonDirection kDirections[] = {
      ComparisonDirection::kEq, ComparisonDirection::kNe, ComparisonDirection::kGe,
      ComparisonDirection::kGt, ComparisonDirection::kLe, ComparisonDirection::kLt};
  HloInstruction* pred = OrNull(MakeCompareHlo(kDirections[Uniform(0, 5)], a, b));
  if (pred == nullptr) return nullptr;
  return Chance(0.5) ? OrNull(MakeSelectHlo(pred, a, b)) : OrNull(MakeSelectHlo(pred, b, a));
}

HloInstruction* RandomProgramGenerator::Convert(HloInstruction* a) {
  const PrimitiveType type = a->shape().element_type();
  switch (Uniform(0, 3)) {
    case 0:  // across kinds
      return OrNull(MakeConvertToHlo(a, type == F32 ? S32 : F32));
    case 1: {  // a chain through a narrower or wider type and back
      PrimitiveType via = type == F32 ? (Chance(0.5) ? F16 : F64) : (Chance(0.5) ? S64 : S16);
      if (type == PRED) via = S32;
      HloInstruction* there = OrNull(MakeConvertToHlo(a, via));
      return there ? OrNull(MakeConvertToHlo(there, type)) : nullptr;
    }
    case 2: {  // to the same type (a no-op the simplifier removes)
      return entry_->AddInstruction(HloInstruction::CreateConvert(a->shape(), a));
    }
    default: {
      HloInstruction* bf = OrNull(MakeConvertToHlo(a, BF16));
      return bf ? OrNull(MakeConvertToHlo(bf, type == PRED ? F32 : type)) : nullptr;
    }
  }
}

HloInstruction* RandomProgramGenerator::Broadcast(HloInstruction* a) {
  const int64_t rank = a->shape().rank();
  if (rank >= options_.max_rank) return nullptr;
  const int64_t at = Uniform(0, rank);
  std::vector<int64_t> dims = a->shape().dimensions();
  dims.insert(dims.begin() + at, Uniform(1, options_.max_dimension));
  std::vector<int64_t> mapping;
  for (int64_t i = 0; i <= rank; ++i) {
    if (i != at) mapping.push_back(i);
  }
  return OrNull(MakeBroadcastHlo(a, mapping, dims));
}

HloInstruction* RandomProgramGenerator::Reshape(HloInstruction* a) {
  const int64_t n = a->shape().num_elements();
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= n; ++d) {
    if (n % d == 0) divisors.push_back(d);
  }
  std::vector<int64_t> dims;
  switch (Uniform(0, 2)) {
    case 0:
      dims = {n};
      break;
    case 1: {
      const int64_t d = divisors[Uniform(0, int64_t(divisors.size()) - 1)];
      dims = {d, n / d};
      break;
    }
    default:
      dims = {1, n};
      break;
  }
  HloInstruction* r = OrNull(MakeReshapeHlo(dims, a));
  // Sometimes straight back (reshape of reshape).
  if (r != nullptr && Chance(0.3)) r = OrNull(MakeReshapeHlo(a->shape().dimensions(), r));
  return r;
}

HloInstruction* RandomProgramGenerator::Transpose(HloInstruction* a) {
  const int64_t rank = a->shape().rank();
  if (rank < 2) return nullptr;
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng_);
  HloInstruction* t = OrNull(MakeTransposeHlo(a, perm));
  if (t != nullptr && Chance(0.3)) {
    std::vector<int64_t> inverse(rank);
    for (int64_t i = 0; i < rank; ++i) inverse[perm[i]] = i;
    t = OrNull(MakeTransposeHlo(t, inverse));
  }
  return t;
}

HloInstruction* RandomProgramGenerator::Slice(HloInstruction* a) {
  const int64_t rank = a->shape().rank();
  if (rank == 0) return nullptr;
  std::vector<int64_t> starts, limits, strides;
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t size = a->shape().dimensions(i);
    const int64_t start = Uniform(0, size - 1);
    const int64_t limit = Uniform(start + 1, size);
    starts.push_back(start);
    limits.push_back(limit);
    strides.push_back(Uniform(1, 2));
  }
  return OrNull(MakeSliceHlo(a, starts, limits, strides));
}

HloInstruction* RandomProgramGenerator::Concatenate(HloInstruction* a) {
  const int64_t rank = a->shape().rank();
  if (rank == 0) return nullptr;
  const int64_t dim = Uniform(0, rank - 1);
  std::vector<HloInstruction*> parts = {a};
  if (!Chance(0.15)) parts.push_back(Chance(0.5) ? a : SameShape(a));
  std::vector<int64_t> dims = a->shape().dimensions();
  dims[dim] *= int64_t(parts.size());
  Shape shape(a->shape().element_type(), dims);
  return entry_->AddInstruction(HloInstruction::CreateConcatenate(shape, parts, dim));
}

HloInstruction* RandomProgramGenerator::Pad(HloInstruction* a) {
  PaddingConfig config;
  std::vector<int64_t> dims;
  const bool nothing = Chance(0.3);
  for (int64_t i = 0; i < a->shape().rank(); ++i) {
    PaddingDimension d;
    if (!nothing) {
      d.edge_padding_low = Uniform(0, 1);
      d.edge_padding_high = Uniform(0, 1);
      d.interior_padding = Uniform(0, 1);
    }
    const int64_t size = a->shape().dimensions(i);
    dims.push_back(size + d.edge_padding_low + d.edge_padding_high +
                   std::max<int64_t>(size - 1, 0) * d.interior_padding);
    config.dimensions.push_back(d);
  }
  if (a->shape().element_type() == PRED) return nullptr;
  HloInstruction* value = ScalarConstant(a->shape().element_type(), double(Uniform(-1, 1)));
  return entry_->AddInstruction(HloInstruction::CreatePad(Shape(a->shape().element_type(), dims),
                                                          a, value, std::move(config)));
}

HloInstruction* RandomProgramGenerator::Reduce(HloInstruction* a) {
  const PrimitiveType type = a->shape().element_type();
  if (type == PRED) return nullptr;
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < a->shape().rank(); ++i) {
    if (Chance(0.5)) dims.push_back(i);
  }
  const bool max = Chance(0.4);
  HloComputation* reducer =
      MakeScalarComputation(module_, max ? HloOpcode::kMaximum : HloOpcode::kAdd, type);
  HloInstruction* init =
      ScalarConstant(type, max ? (type == F32 ? -1e30 : -1000000) : double(Uniform(0, 1)));
  // Sometimes reduce a broadcast of a scalar over what it added.
  if (a->shape().rank() > 0 && Chance(0.1)) {
    HloInstruction* scalar = OrNull(MakeReduceHlo(a, init, AllDimensions(a->shape().rank()), reducer));
    if (scalar == nullptr) return nullptr;
    HloInstruction* spread = OrNull(MakeBroadcastHlo(scalar, {}, {Uniform(1, 4), Uniform(1, 4)}));
    return spread ? OrNull(MakeReduceHlo(spread, init, {0}, reducer)) : nullptr;
  }
  return OrNull(MakeReduceHlo(a, init, dims, reducer));
}

HloInstruction* RandomProgramGenerator::Dot(HloInstruction* a) {
  const PrimitiveType type = a->shape().element_type();
  const int64_t rank = a->shape().rank();
  if (type == PRED || rank == 0 || rank > 3) return nullptr;
  DotDimensionNumbers dnums;
  std::vector<int64_t> rhs_dims;
  if (rank == 3) {
    // Batched: [b, m, k] x [b, k, n].
    dnums.lhs_batch_dimensions = {0};
    dnums.rhs_batch_dimensions = {0};
    dnums.lhs_contracting_dimensions = {2};
    dnums.rhs_contracting_dimensions = {1};
    rhs_dims = {a->shape().dimensions(0), a->shape().dimensions(2), Uniform(1, options_.max_dimension)};
  } else {
    dnums.lhs_contracting_dimensions = {rank - 1};
    dnums.rhs_contracting_dimensions = {0};
    rhs_dims = {a->shape().dimensions(rank - 1)};
    if (Chance(0.7)) rhs_dims.push_back(Uniform(1, options_.max_dimension));
  }
  HloInstruction* b = NewParameter(Shape(type, rhs_dims));
  std::vector<int64_t> out;
  for (int64_t d : dnums.lhs_batch_dimensions) out.push_back(a->shape().dimensions(d));
  for (int64_t i = 0; i < rank; ++i) {
    if (i != dnums.lhs_contracting_dimensions[0] &&
        (dnums.lhs_batch_dimensions.empty() || i != dnums.lhs_batch_dimensions[0])) {
      out.push_back(a->shape().dimensions(i));
    }
  }
  for (int64_t i = 0; i < int64_t(rhs_dims.size()); ++i) {
    if (i != dnums.rhs_contracting_dimensions[0] &&
        (dnums.rhs_batch_dimensions.empty() || i != dnums.rhs_batch_dimensions[0])) {
      out.push_back(rhs_dims[i]);
    }
  }
  return entry_->AddInstruction(HloInstruction::CreateDot(Shape(type, out), a, b, dnums));
}

HloInstruction* RandomProgramGenerator::Identity(HloInstruction* a) {
  const PrimitiveType type = a->shape().element_type();
  const auto& dims = a->shape().dimensions();
  switch (Uniform(0, 5)) {
    case 0:
      if (type == PRED) return nullptr;
      return OrNull(MakeBinaryHlo(HloOpcode::kAdd, a, Splat(type, 0, dims)));
    case 1:
      if (type == PRED) return nullptr;
      return OrNull(MakeBinaryHlo(HloOpcode::kMultiply, Splat(type, 1, dims), a));
    case 2:
      return OrNull(MakeReshapeHlo(dims, a));
    case 3:
      return entry_->AddInstruction(HloInstruction::CreateUnary(a->shape(), HloOpcode::kCopy, a));
    case 4: {
      if (type == PRED) return nullptr;
      HloInstruction* n = OrNull(MakeUnaryHlo(HloOpcode::kNegate, a));
      return n ? OrNull(MakeUnaryHlo(HloOpcode::kNegate, n)) : nullptr;
    }
    default: {
      std::vector<int64_t> perm(dims.size());
      std::iota(perm.begin(), perm.end(), 0);
      return OrNull(MakeTransposeHlo(a, perm));
    }
  }
}

HloInstruction* RandomProgramGenerator::Iota() {
  Shape shape = RandomShape(Chance(0.5) ? F32 : S32);
  if (shape.rank() == 0) shape = Shape(shape.element_type(), {Uniform(1, options_.max_dimension)});
  return entry_->AddInstruction(HloInstruction::CreateIota(shape, Uniform(0, shape.rank() - 1)));
}

HloInstruction* RandomProgramGenerator::While(HloInstruction* a) {
  const PrimitiveType type = a->shape().element_type();
  if (type == PRED) return nullptr;
  const Shape counter = Shape::MakeScalar(S32);
  const Shape state = Shape::MakeTuple({counter, a->shape()});
  const int64_t trips = Uniform(0, 3);
  const std::string tag = absl::StrCat(module_->computation_count());

  auto cond = std::make_unique<HloComputation>(absl::StrCat("loop_condition.", tag));
  {
    HloInstruction* p = cond->AddParameter(HloInstruction::CreateParameter(0, state, "state"));
    HloInstruction* i = cond->AddInstruction(HloInstruction::CreateGetTupleElement(p, 0));
    Literal limit(counter);
    limit.SetFromInt64(0, trips);
    HloInstruction* n = cond->AddInstruction(HloInstruction::CreateConstant(std::move(limit)));
    cond->set_root_instruction(cond->AddInstruction(HloInstruction::CreateCompare(
        Shape::MakeScalar(PRED), i, n, ComparisonDirection::kLt)));
  }
  auto body = std::make_unique<HloComputation>(absl::StrCat("loop_body.", tag));
  {
    HloInstruction* p = body->AddParameter(HloInstruction::CreateParameter(0, state, "state"));
    HloInstruction* i = body->AddInstruction(HloInstruction::CreateGetTupleElement(p, 0));
    HloInstruction* v = body->AddInstruction(HloInstruction::CreateGetTupleElement(p, 1));
    Literal one_literal(counter);
    one_literal.SetFromInt64(0, 1);
    HloInstruction* one = body->AddInstruction(HloInstruction::CreateConstant(std::move(one_literal)));
    HloInstruction* next_i = body->AddInstruction(
        HloInstruction::CreateBinary(counter, HloOpcode::kAdd, i, one));
    // v' = v * c + v (floats: tanh keeps it bounded).
    Literal c(Shape::MakeScalar(type));
    if (type == F32) {
      c.SetFromDouble(0, 0.5);
    } else {
      c.SetFromInt64(0, 3);
    }
    HloInstruction* cs = body->AddInstruction(HloInstruction::CreateConstant(std::move(c)));
    HloInstruction* cb = body->AddInstruction(HloInstruction::CreateBroadcast(a->shape(), cs, {}));
    HloInstruction* scaled =
        body->AddInstruction(HloInstruction::CreateBinary(a->shape(), HloOpcode::kMultiply, v, cb));
    HloInstruction* next_v =
        body->AddInstruction(HloInstruction::CreateBinary(a->shape(), HloOpcode::kAdd, scaled, v));
    if (type == F32) {
      next_v = body->AddInstruction(HloInstruction::CreateUnary(a->shape(), HloOpcode::kTanh, next_v));
    }
    body->set_root_instruction(body->AddInstruction(HloInstruction::CreateTuple({next_i, next_v})));
  }
  HloComputation* cond_raw = module_->AddEmbeddedComputation(std::move(cond));
  HloComputation* body_raw = module_->AddEmbeddedComputation(std::move(body));
  HloInstruction* zero = ScalarConstant(S32, 0);
  HloInstruction* init = entry_->AddInstruction(HloInstruction::CreateTuple({zero, a}));
  HloInstruction* loop =
      entry_->AddInstruction(HloInstruction::CreateWhile(state, cond_raw, body_raw, init));
  return entry_->AddInstruction(HloInstruction::CreateGetTupleElement(loop, 1));
}

std::unique_ptr<HloModule> RandomProgramGenerator::Generate() {
  auto module = std::make_unique<HloModule>("random_program");
  module_ = module.get();
  entry_ = module->AddEntryComputation(std::make_unique<HloComputation>("main"));
  values_.clear();
  next_parameter_ = 0;
  const int64_t initial = Uniform(1, 3);
  for (int64_t i = 0; i < initial; ++i) {
    values_.push_back(NewParameter(RandomShape(Chance(0.7) ? F32 : S32)));
  }
  while (entry_->instruction_count() < options_.instructions) {
    HloInstruction* a = Pick();
    HloInstruction* made = nullptr;
    if (Chance(options_.while_probability)) {
      made = While(a);
    } else {
      switch (Uniform(0, 16)) {
        case 0: case 1: made = Unary(a); break;
        case 2: case 3: case 4: made = Binary(a); break;
        case 5: made = Select(a); break;
        case 6: made = Convert(a); break;
        case 7: made = Broadcast(a); break;
        case 8: made = Reshape(a); break;
        case 9: made = Transpose(a); break;
        case 10: made = Slice(a); break;
        case 11: made = Concatenate(a); break;
        case 12: made = Reduce(a); break;
        case 13: made = Dot(a); break;
        case 14: made = Identity(a); break;
        case 15: made = Pad(a); break;
        default: made = Iota(); break;
      }
    }
    if (made != nullptr) values_.push_back(made);
  }
  // The result: the last value and a couple of others.
  std::vector<HloInstruction*> outputs = {values_.back()};
  for (int k = 0; k < 2 && values_.size() > 1; ++k) {
    HloInstruction* v = values_[Uniform(0, int64_t(values_.size()) - 2)];
    if (std::find(outputs.begin(), outputs.end(), v) == outputs.end()) outputs.push_back(v);
  }
  entry_->set_root_instruction(entry_->AddInstruction(HloInstruction::CreateTuple(outputs)));
  entry_ = nullptr;
  module_ = nullptr;
  return module;
}

}  // namespace systolic
