#include "core/hlo/shape_inference.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using Shapes = ShapeInference::Shapes;
using primitive_util::IsComplexType;
using primitive_util::IsFloatingPointType;
using primitive_util::IsIntegralType;
using primitive_util::IsSignedIntegralType;
using primitive_util::IsUnsignedIntegralType;

// --- Messages ------------------------------------------------------------------

std::string Text(const Shape& shape) { return shape.ToString(); }

std::string Text(PrimitiveType type) {
  return std::string(primitive_util::LowercasePrimitiveTypeName(type));
}

std::string Text(HloOpcode opcode) { return std::string(HloOpcodeString(opcode)); }

std::string Braced(absl::Span<const int64_t> values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

std::string ShapesText(Shapes shapes) {
  std::vector<std::string> parts;
  for (const Shape* s : shapes) parts.push_back(Text(*s));
  return absl::StrJoin(parts, ", ");
}

template <typename... Args>
absl::Status Invalid(const Args&... pieces) {
  return absl::InvalidArgumentError(absl::StrCat(pieces...));
}

// --- Small predicates ------------------------------------------------------------

absl::Status ExpectArray(const Shape& shape, absl::string_view what) {
  if (shape.IsArray()) return absl::OkStatus();
  return Invalid(what, " must be an array, but is ", Text(shape));
}

absl::Status ExpectToken(const Shape& shape, absl::string_view what) {
  if (shape.IsToken()) return absl::OkStatus();
  return Invalid(what, " must be a token, but is ", Text(shape));
}

bool IsScalarOfType(const Shape& shape, PrimitiveType type) {
  return shape.IsScalar() && shape.element_type() == type;
}

// XLA's "signed" element types: signed integers and floats.
bool IsSignedType(PrimitiveType type) {
  return IsSignedIntegralType(type) || IsFloatingPointType(type);
}

bool SameDimensions(const Shape& a, const Shape& b) { return a.dimensions() == b.dimensions(); }

bool AllUnique(absl::Span<const int64_t> values) {
  absl::flat_hash_set<int64_t> seen;
  for (int64_t v : values) {
    if (!seen.insert(v).second) return false;
  }
  return true;
}

bool Contains(absl::Span<const int64_t> values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// Overflow-checked arithmetic: dimension sizes come from untrusted text.
bool CheckedAdd(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
bool CheckedMul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

// The number of elements, or nullopt when it overflows or a dimension is
// unbounded.
std::optional<int64_t> ElementCount(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape.dimensions()) {
    if (d < 0 || !CheckedMul(n, d, &n)) return std::nullopt;
  }
  return n;
}

Shape MakeArray(PrimitiveType type, absl::Span<const int64_t> dimensions,
                const std::vector<bool>& dynamic) {
  Shape shape(type, dimensions);
  for (size_t i = 0; i < dynamic.size() && i < dimensions.size(); ++i) {
    if (dynamic[i]) shape.set_dynamic_dimension(int64_t(i), true);
  }
  return shape;
}

Shape WithElementType(const Shape& shape, PrimitiveType type) {
  Shape result = shape;
  result.set_element_type(type);
  result.clear_layout();
  return result;
}

Shape WithoutLayout(const Shape& shape) {
  Shape result = shape;
  result.ClearLayoutsRecursively();
  return result;
}

std::vector<bool> DynamicFlags(const Shape& shape) {
  std::vector<bool> flags(shape.rank());
  for (int64_t i = 0; i < shape.rank(); ++i) flags[i] = shape.is_dynamic_dimension(i);
  return flags;
}

// Checks that `dims` (the attribute `what`) lists distinct dimensions of a
// value of rank `rank` described by `owner`, in increasing order if `sorted`.
absl::Status CheckDimensionList(absl::Span<const int64_t> dims, int64_t rank,
                                absl::string_view what, absl::string_view owner,
                                bool sorted = false) {
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) {
      return Invalid(what, "=", Braced(dims), ": dimension ", d, " is out of range for ", owner);
    }
  }
  if (!AllUnique(dims)) return Invalid(what, "=", Braced(dims), " repeats a dimension");
  if (sorted && !std::is_sorted(dims.begin(), dims.end())) {
    return Invalid(what, "=", Braced(dims), " must be sorted");
  }
  return absl::OkStatus();
}

// `result` of MaybeUpcast in XLA: a preferred type replaces the operands'
// type, except that an integer result may not be narrower.
absl::StatusOr<PrimitiveType> ResultElementType(PrimitiveType from,
                                                std::optional<PrimitiveType> preferred) {
  if (!preferred || *preferred == from) return from;
  if (!primitive_util::IsArrayType(*preferred)) {
    return Invalid("the result element type ", Text(*preferred), " is not an array type");
  }
  if (!IsFloatingPointType(from) &&
      primitive_util::BitWidth(*preferred) < primitive_util::BitWidth(from)) {
    return Invalid("the result element type ", Text(*preferred),
                   " must not be narrower than the operands' ", Text(from));
  }
  return *preferred;
}

// Checks a reducer (reduce, reduce-window, scatter, all-reduce, ...):
// (acc_0..acc_{n-1}, x_0..x_{n-1}) -> acc (a tuple when n > 1), every value a
// scalar; the accumulators match the init values and the inputs' element
// types (up to floating-point precision).
absl::Status VerifyReducerShape(const ProgramShape& reducer, Shapes init_values,
                                absl::Span<const PrimitiveType> input_types, int64_t inputs) {
  const std::string signature = reducer.ToString(false);
  if (int64_t(reducer.parameters.size()) != 2 * inputs) {
    return Invalid("the reducer ", signature, " must take ", 2 * inputs, " parameters, but takes ",
                   reducer.parameters.size());
  }
  std::vector<const Shape*> accumulators;
  if (reducer.result.IsArray()) {
    if (inputs != 1) {
      return Invalid("the reducer ", signature, " must return a tuple of ", inputs, " scalars");
    }
    accumulators.push_back(&reducer.result);
  } else if (reducer.result.IsTuple()) {
    if (reducer.result.tuple_shapes_size() != inputs) {
      return Invalid("the reducer ", signature, " must return ", inputs, " scalars, but returns ",
                     reducer.result.tuple_shapes_size());
    }
    for (const Shape& s : reducer.result.tuple_shapes()) accumulators.push_back(&s);
  } else {
    return Invalid("the reducer ", signature, " must return a scalar or a tuple of scalars");
  }
  for (const Shape* acc : accumulators) {
    if (!acc->IsScalar()) {
      return Invalid("the reducer ", signature, " must return scalars, not ", Text(*acc));
    }
  }
  for (int64_t i = 0; i < inputs; ++i) {
    const Shape& acc = *accumulators[i];
    if (!ShapeInference::Compatible(acc, reducer.parameters[i])) {
      return Invalid("the reducer ", signature, ": parameter ", i, " must have the type of its result ",
                     Text(acc));
    }
    if (!ShapeInference::CompatibleIgnoringFpPrecision(acc, *init_values[i])) {
      return Invalid("the reducer ", signature, " accumulates ", Text(acc),
                     " but the init value is ", Text(*init_values[i]));
    }
    const Shape input_element(input_types[i], {});
    const Shape& x = reducer.parameters[inputs + i];
    if (!ShapeInference::CompatibleIgnoringFpPrecision(input_element, x)) {
      return Invalid("the reducer ", signature, ": parameter ", inputs + i,
                     " must be a scalar of the input's element type ", Text(input_types[i]));
    }
    if (!ShapeInference::CompatibleIgnoringFpPrecision(acc, x)) {
      return Invalid("the reducer ", signature, ": parameter ", inputs + i,
                     " must match the accumulator ", Text(acc));
    }
  }
  return absl::OkStatus();
}

// Checks one window dimension's own attributes.
absl::Status CheckWindowDimension(const WindowDimension& d, size_t i) {
  if (d.size <= 0) return Invalid("window dimension ", i, " has size ", d.size, "; it must be positive");
  if (d.stride <= 0) {
    return Invalid("window dimension ", i, " has stride ", d.stride, "; it must be positive");
  }
  if (d.base_dilation < 1) {
    return Invalid("window dimension ", i, " has lhs_dilate ", d.base_dilation,
                   "; it must be at least 1");
  }
  if (d.window_dilation < 1) {
    return Invalid("window dimension ", i, " has rhs_dilate ", d.window_dilation,
                   "; it must be at least 1");
  }
  return absl::OkStatus();
}

// The output size of one windowed dimension, overflow-checked.
absl::StatusOr<int64_t> WindowedSize(int64_t input, const WindowDimension& d, size_t i) {
  // (n - 1) * dilation + 1 for n > 0, 0 for an empty base.
  int64_t dilated_base = 0;
  if (input > 0 && (!CheckedMul(input - 1, d.base_dilation, &dilated_base) ||
                    !CheckedAdd(dilated_base, 1, &dilated_base))) {
    return Invalid("window dimension ", i, " overflows");
  }
  int64_t padded = 0;
  if (!CheckedAdd(dilated_base, d.padding_low, &padded) ||
      !CheckedAdd(padded, d.padding_high, &padded)) {
    return Invalid("window dimension ", i, " overflows");
  }
  if (padded < 0) {
    return Invalid("window dimension ", i, ": padding ", d.padding_low, "_", d.padding_high,
                   " leaves a negative input size ", padded);
  }
  int64_t dilated_window = 0;
  if (!CheckedMul(d.size - 1, d.window_dilation, &dilated_window) ||
      !CheckedAdd(dilated_window, 1, &dilated_window)) {
    return Invalid("window dimension ", i, " overflows");
  }
  if (dilated_window > padded) return 0;
  return (padded - dilated_window) / d.stride + 1;
}

absl::Status ExpectScalarParameters(const ProgramShape& computation, absl::string_view what) {
  for (size_t i = 0; i < computation.parameters.size(); ++i) {
    if (!computation.parameters[i].IsScalar()) {
      return Invalid(what, " ", computation.ToString(false), ": parameter ", i,
                     " must be a scalar");
    }
  }
  return absl::OkStatus();
}

// Index vectors of gather and scatter: the dimensions of `indices` other than
// index_vector_dim ("batch" dimensions), and the index vector's length.
struct IndexVectorLayout {
  std::vector<int64_t> batch_dimensions;  // positions in `indices`
  int64_t vector_size = 1;
};

absl::StatusOr<IndexVectorLayout> SplitIndices(const Shape& indices, int64_t index_vector_dim,
                                               absl::string_view op) {
  if (!IsIntegralType(indices.element_type())) {
    return Invalid(op, " indices must be integers, but are ", Text(indices));
  }
  if (index_vector_dim < 0 || index_vector_dim > indices.rank()) {
    return Invalid("index_vector_dim=", index_vector_dim, " is out of range for indices ",
                   Text(indices), " (it may be at most the rank)");
  }
  IndexVectorLayout layout;
  for (int64_t i = 0; i < indices.rank(); ++i) {
    if (i == index_vector_dim) {
      layout.vector_size = indices.dimensions(i);
    } else {
      layout.batch_dimensions.push_back(i);
    }
  }
  return layout;
}

}  // namespace

// --- Type helpers -------------------------------------------------------------------

bool ShapeInference::SameElementTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b) {
  return a == b || (IsFloatingPointType(a) && IsFloatingPointType(b));
}

namespace {

template <typename SameType>
bool CompatibleWith(const Shape& a, const Shape& b, SameType same_type) {
  if (a.IsTuple() || b.IsTuple()) {
    if (!a.IsTuple() || !b.IsTuple() || a.tuple_shapes_size() != b.tuple_shapes_size()) {
      return false;
    }
    for (int64_t i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!CompatibleWith(a.tuple_shapes(i), b.tuple_shapes(i), same_type)) return false;
    }
    return true;
  }
  if (!a.IsArray() || !b.IsArray()) return a.element_type() == b.element_type();
  return same_type(a.element_type(), b.element_type()) && SameDimensions(a, b);
}

}  // namespace

bool ShapeInference::CompatibleIgnoringFpPrecision(const Shape& a, const Shape& b) {
  return CompatibleWith(a, b, &SameElementTypeIgnoringFpPrecision);
}

bool ShapeInference::Compatible(const Shape& a, const Shape& b) {
  return CompatibleWith(a, b, [](PrimitiveType x, PrimitiveType y) { return x == y; });
}

PrimitiveType ShapeInference::HigherPrecisionType(PrimitiveType a, PrimitiveType b) {
  auto rank = [](PrimitiveType t) {
    PrimitiveType component = IsComplexType(t) ? primitive_util::ComplexComponentType(t) : t;
    bool is_float = IsFloatingPointType(component);
    return std::make_tuple(IsComplexType(t),
                           is_float ? primitive_util::ExponentWidth(component) : -1,
                           is_float ? primitive_util::SignificandWidth(component) : -1,
                           primitive_util::BitWidth(component), IsSignedIntegralType(component));
  };
  return rank(b) > rank(a) ? b : a;
}

// --- Elementwise ------------------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferUnaryOpShape(HloOpcode opcode, const Shape& operand) {
  // copy and domain pass any value through, tuples included.
  if (opcode == HloOpcode::kCopy || opcode == HloOpcode::kDomain) return WithoutLayout(operand);
  const std::string op = Text(opcode);
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, absl::StrCat("the operand of ", op)));
  const PrimitiveType type = operand.element_type();
  auto require = [&](bool ok, absl::string_view kinds) -> absl::Status {
    if (ok) return absl::OkStatus();
    return Invalid(op, " needs ", kinds, " elements, but the operand is ", Text(operand));
  };
  switch (opcode) {
    case HloOpcode::kFloor:
    case HloOpcode::kCeil:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kErf:
      SYSTOLIC_RETURN_IF_ERROR(require(IsFloatingPointType(type), "floating-point"));
      return WithoutLayout(operand);
    case HloOpcode::kCos:
    case HloOpcode::kSin:
    case HloOpcode::kTan:
    case HloOpcode::kExp:
    case HloOpcode::kExpm1:
    case HloOpcode::kLog:
    case HloOpcode::kLog1p:
    case HloOpcode::kLogistic:
    case HloOpcode::kRsqrt:
    case HloOpcode::kSqrt:
    case HloOpcode::kCbrt:
    case HloOpcode::kTanh:
      SYSTOLIC_RETURN_IF_ERROR(
          require(IsFloatingPointType(type) || IsComplexType(type), "floating-point or complex"));
      return WithoutLayout(operand);
    case HloOpcode::kReal:
    case HloOpcode::kImag:
      SYSTOLIC_RETURN_IF_ERROR(
          require(IsFloatingPointType(type) || IsComplexType(type), "floating-point or complex"));
      return IsComplexType(type)
                 ? WithElementType(operand, primitive_util::ComplexComponentType(type))
                 : WithoutLayout(operand);
    case HloOpcode::kAbs:
      SYSTOLIC_RETURN_IF_ERROR(
          require(IsSignedType(type) || IsComplexType(type), "signed, floating-point or complex"));
      return IsComplexType(type)
                 ? WithElementType(operand, primitive_util::ComplexComponentType(type))
                 : WithoutLayout(operand);
    case HloOpcode::kSign:
      SYSTOLIC_RETURN_IF_ERROR(
          require(IsSignedType(type) || IsComplexType(type), "signed, floating-point or complex"));
      return WithoutLayout(operand);
    case HloOpcode::kNegate:
      SYSTOLIC_RETURN_IF_ERROR(require(
          IsIntegralType(type) || IsFloatingPointType(type) || IsComplexType(type), "numeric"));
      return WithoutLayout(operand);
    case HloOpcode::kClz:
    case HloOpcode::kPopulationCount:
      SYSTOLIC_RETURN_IF_ERROR(require(IsIntegralType(type), "integer"));
      return WithoutLayout(operand);
    case HloOpcode::kNot:
      SYSTOLIC_RETURN_IF_ERROR(require(type == PRED || IsIntegralType(type), "pred or integer"));
      return WithoutLayout(operand);
    case HloOpcode::kIsFinite:
      SYSTOLIC_RETURN_IF_ERROR(require(IsFloatingPointType(type), "floating-point"));
      return WithElementType(operand, PRED);
    default:
      return Invalid(op, " is not a unary elementwise operation");
  }
}

absl::StatusOr<Shape> ShapeInference::InferBinaryOpShape(HloOpcode opcode, const Shape& lhs,
                                                         const Shape& rhs) {
  const std::string op = Text(opcode);
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(lhs, absl::StrCat("the lhs of ", op)));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(rhs, absl::StrCat("the rhs of ", op)));
  const PrimitiveType type = lhs.element_type();
  switch (opcode) {
    case HloOpcode::kAdd:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
    case HloOpcode::kCompare:
    case HloOpcode::kComplex:
      break;
    case HloOpcode::kSubtract:
    case HloOpcode::kAtan2:
    case HloOpcode::kPower:
    case HloOpcode::kDivide:
    case HloOpcode::kRemainder:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
      if (type == PRED || rhs.element_type() == PRED) {
        return Invalid(op, " needs arithmetic operands, but got ", Text(lhs), " and ", Text(rhs));
      }
      break;
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
      if (type != PRED && !IsIntegralType(type)) {
        return Invalid(op, " needs pred or integer operands, but got ", Text(lhs));
      }
      break;
    default:
      return Invalid(op, " is not a binary elementwise operation");
  }
  if (!SameElementTypeIgnoringFpPrecision(type, rhs.element_type())) {
    return Invalid(op, " needs operands of one element type, but got ", Text(lhs), " and ",
                   Text(rhs));
  }
  if (!SameDimensions(lhs, rhs)) {
    return Invalid(op, " needs operands of the same dimensions (HLO has no implicit "
                   "broadcasting), but got ",
                   Text(lhs), " and ", Text(rhs));
  }
  Shape result = WithElementType(lhs, HigherPrecisionType(type, rhs.element_type()));
  for (int64_t i = 0; i < rhs.rank(); ++i) {
    if (rhs.is_dynamic_dimension(i)) result.set_dynamic_dimension(i, true);
  }
  if (opcode == HloOpcode::kCompare) result.set_element_type(PRED);
  if (opcode == HloOpcode::kComplex) {
    if (type == F32 && rhs.element_type() == F32) {
      result.set_element_type(C64);
    } else if (type == F64 && rhs.element_type() == F64) {
      result.set_element_type(C128);
    } else {
      return Invalid("complex needs two f32 or two f64 operands, but got ", Text(lhs), " and ",
                     Text(rhs));
    }
  }
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferTernaryOpShape(HloOpcode opcode, const Shape& a,
                                                          const Shape& b, const Shape& c) {
  switch (opcode) {
    case HloOpcode::kClamp:
      return InferClampShape(a, b, c);
    case HloOpcode::kSelect:
      return InferSelectShape(a, b, c);
    default:
      return Invalid(Text(opcode), " is not a ternary operation");
  }
}

absl::StatusOr<Shape> ShapeInference::InferClampShape(const Shape& min, const Shape& operand,
                                                      const Shape& max) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(min, "the min of clamp"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of clamp"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(max, "the max of clamp"));
  for (const Shape* bound : {&min, &max}) {
    if (!SameElementTypeIgnoringFpPrecision(bound->element_type(), operand.element_type())) {
      return Invalid("clamp needs min, operand and max of one element type, but got ", Text(min),
                     ", ", Text(operand), " and ", Text(max));
    }
    if (!bound->IsScalar() && !SameDimensions(*bound, operand)) {
      return Invalid("clamp needs min and max to be scalars or of the operand's dimensions, but "
                     "got ",
                     Text(min), ", ", Text(operand), " and ", Text(max));
    }
  }
  return WithoutLayout(operand);
}

absl::StatusOr<Shape> ShapeInference::InferSelectShape(const Shape& pred, const Shape& on_true,
                                                       const Shape& on_false) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(pred, "the predicate of select"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(on_true, "the on_true operand of select"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(on_false, "the on_false operand of select"));
  if (pred.element_type() != PRED) {
    return Invalid("the predicate of select must be pred, but is ", Text(pred));
  }
  if (!CompatibleIgnoringFpPrecision(on_true, on_false)) {
    return Invalid("select needs on_true and on_false of one shape, but got ", Text(on_true),
                   " and ", Text(on_false));
  }
  if (!pred.IsScalar() && !SameDimensions(pred, on_true)) {
    return Invalid("the predicate of select must be a scalar or have the dimensions of the "
                   "values, but got ",
                   Text(pred), " for ", Text(on_true));
  }
  Shape result =
      WithElementType(on_true, HigherPrecisionType(on_true.element_type(), on_false.element_type()));
  for (int64_t i = 0; i < on_false.rank(); ++i) {
    if (on_false.is_dynamic_dimension(i)) result.set_dynamic_dimension(i, true);
  }
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferConvertShape(const Shape& operand,
                                                        PrimitiveType new_type) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of convert"));
  if (!primitive_util::IsArrayType(new_type)) {
    return Invalid("convert cannot produce ", Text(new_type), " elements");
  }
  return WithElementType(operand, new_type);
}

absl::StatusOr<Shape> ShapeInference::InferBitcastConvertShape(const Shape& operand,
                                                               PrimitiveType new_type) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of bitcast-convert"));
  const PrimitiveType old_type = operand.element_type();
  if (!primitive_util::IsArrayType(new_type)) {
    return Invalid("bitcast-convert cannot produce ", Text(new_type), " elements");
  }
  if (IsComplexType(old_type) != IsComplexType(new_type)) {
    return Invalid("bitcast-convert cannot convert between complex and real types: ",
                   Text(operand), " to ", Text(new_type));
  }
  const int old_bits = primitive_util::BitWidth(old_type);
  const int new_bits = primitive_util::BitWidth(new_type);
  if (old_bits <= 0 || new_bits <= 0 ||
      std::max(old_bits, new_bits) % std::min(old_bits, new_bits) != 0) {
    return Invalid("bitcast-convert from ", Text(operand), " to ", Text(new_type),
                   ": the bit widths ", old_bits, " and ", new_bits, " do not divide");
  }
  Shape result = WithElementType(operand, new_type);
  if (old_bits > new_bits) {
    // Each element splits into `ratio` narrower ones along a new minor dimension.
    result.add_dimensions(old_bits / new_bits);
  } else if (old_bits < new_bits) {
    const int64_t ratio = new_bits / old_bits;
    if (operand.rank() == 0 || operand.dimensions(operand.rank() - 1) != ratio) {
      return Invalid("bitcast-convert from ", Text(operand), " to ", Text(new_type),
                     " needs a minor dimension of size ", ratio, " (the bit-width ratio)");
    }
    result.DeleteDimension(operand.rank() - 1);
  }
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferStochasticConvertShape(const Shape& operand,
                                                                  const Shape& random,
                                                                  PrimitiveType new_type) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of stochastic-convert"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(random, "the random bits of stochastic-convert"));
  if (!IsUnsignedIntegralType(random.element_type())) {
    return Invalid("the random bits of stochastic-convert must be unsigned integers, but are ",
                   Text(random));
  }
  if (!IsFloatingPointType(operand.element_type())) {
    return Invalid("stochastic-convert needs a floating-point operand, but got ", Text(operand));
  }
  if (primitive_util::BitWidth(operand.element_type()) !=
      primitive_util::BitWidth(random.element_type())) {
    return Invalid("stochastic-convert needs random bits as wide as the operand's elements, but "
                   "got ",
                   Text(operand), " and ", Text(random));
  }
  if (!SameDimensions(operand, random)) {
    return Invalid("stochastic-convert needs random bits of the operand's dimensions, but got ",
                   Text(operand), " and ", Text(random));
  }
  return InferConvertShape(operand, new_type);
}

absl::StatusOr<Shape> ShapeInference::InferReducePrecisionShape(const Shape& operand,
                                                                int64_t exponent_bits,
                                                                int64_t mantissa_bits) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of reduce-precision"));
  if (!IsFloatingPointType(operand.element_type())) {
    return Invalid("reduce-precision needs a floating-point operand, but got ", Text(operand));
  }
  // One exponent bit is needed to tell zero from infinity.
  if (exponent_bits < 1) return Invalid("exponent_bits=", exponent_bits, " must be at least 1");
  if (mantissa_bits < 0) return Invalid("mantissa_bits=", mantissa_bits, " must not be negative");
  return WithoutLayout(operand);
}

absl::StatusOr<Shape> ShapeInference::InferMapShape(Shapes operands, const ProgramShape& to_apply,
                                                    absl::Span<const int64_t> dimensions) {
  if (operands.empty()) return Invalid("map needs at least one operand");
  const Shape& first = *operands[0];
  for (const Shape* s : operands) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*s, "every operand of map"));
    if (!SameDimensions(*s, first)) {
      return Invalid("map needs operands of the same dimensions, but got ", ShapesText(operands));
    }
  }
  // Only whole-array maps exist: the dimensions, if given, are 0..rank-1.
  if (!dimensions.empty()) {
    bool identity = int64_t(dimensions.size()) == first.rank();
    for (size_t i = 0; identity && i < dimensions.size(); ++i) identity = dimensions[i] == int64_t(i);
    if (!identity) {
      return Invalid("map dimensions=", Braced(dimensions), " must be all dimensions in order (0..",
                     first.rank() - 1, ")");
    }
  }
  const std::string signature = to_apply.ToString(false);
  if (to_apply.parameters.size() != operands.size()) {
    return Invalid("the mapped computation ", signature, " takes ", to_apply.parameters.size(),
                   " parameters, but map has ", operands.size(), " operands");
  }
  if (!to_apply.result.IsScalar()) {
    return Invalid("the mapped computation ", signature, " must return a scalar");
  }
  SYSTOLIC_RETURN_IF_ERROR(ExpectScalarParameters(to_apply, "the mapped computation"));
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!SameElementTypeIgnoringFpPrecision(to_apply.parameters[i].element_type(),
                                            operands[i]->element_type())) {
      return Invalid("the mapped computation ", signature, ": parameter ", i,
                     " does not match the element type of operand ", Text(*operands[i]));
    }
  }
  return MakeArray(to_apply.result.element_type(), first.dimensions(), DynamicFlags(first));
}

// --- Data movement ------------------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferBroadcastShape(
    const Shape& operand, const Shape& output, absl::Span<const int64_t> broadcast_dimensions) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of broadcast"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(output, "the result of broadcast"));
  if (int64_t(broadcast_dimensions.size()) != operand.rank()) {
    return Invalid("broadcast dimensions=", Braced(broadcast_dimensions), " must name one output "
                   "dimension for each of the ",
                   operand.rank(), " dimensions of the operand ", Text(operand));
  }
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(broadcast_dimensions, output.rank(), "dimensions",
                                              absl::StrCat("the result ", Text(output))));
  Shape result = WithElementType(output, operand.element_type());
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const int64_t out = broadcast_dimensions[i];
    if (output.dimensions(out) != operand.dimensions(i)) {
      return Invalid("broadcast maps operand dimension ", i, " (size ", operand.dimensions(i),
                     ") to result dimension ", out, " (size ", output.dimensions(out),
                     "); the sizes must be equal");
    }
    result.set_dynamic_dimension(out, operand.is_dynamic_dimension(i));
  }
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferReshapeShape(const Shape& operand,
                                                        const Shape& new_shape) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of reshape"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(new_shape, "the result of reshape"));
  if (!operand.is_unbounded_dynamic() && !new_shape.is_unbounded_dynamic()) {
    std::optional<int64_t> in = ElementCount(operand);
    std::optional<int64_t> out = ElementCount(new_shape);
    if (!in || !out) return Invalid("reshape from ", Text(operand), " has too many elements");
    if (*in != *out) {
      return Invalid("reshape cannot change the number of elements: ", Text(operand), " has ", *in,
                     ", ", Text(WithElementType(new_shape, operand.element_type())), " has ", *out);
    }
  }
  return WithElementType(new_shape, operand.element_type());
}

absl::StatusOr<Shape> ShapeInference::InferTransposeShape(const Shape& operand,
                                                          absl::Span<const int64_t> permutation) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of transpose"));
  if (int64_t(permutation.size()) != operand.rank()) {
    return Invalid("transpose dimensions=", Braced(permutation), " is not a permutation of the ",
                   operand.rank(), " dimensions of ", Text(operand));
  }
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(permutation, operand.rank(), "transpose dimensions", Text(operand)));
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  for (int64_t d : permutation) {
    dims.push_back(operand.dimensions(d));
    dynamic.push_back(operand.is_dynamic_dimension(d));
  }
  return MakeArray(operand.element_type(), dims, dynamic);
}

absl::StatusOr<Shape> ShapeInference::InferReverseShape(const Shape& operand,
                                                        absl::Span<const int64_t> dimensions) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of reverse"));
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(dimensions, operand.rank(), "reverse dimensions", Text(operand)));
  return WithoutLayout(operand);
}

absl::StatusOr<Shape> ShapeInference::InferSliceShape(const Shape& operand,
                                                      absl::Span<const int64_t> starts,
                                                      absl::Span<const int64_t> limits,
                                                      absl::Span<const int64_t> strides) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of slice"));
  if (int64_t(starts.size()) != operand.rank() || limits.size() != starts.size() ||
      strides.size() != starts.size()) {
    return Invalid("slice needs one [start:limit:stride] per dimension of ", Text(operand),
                   ", but has ", starts.size());
  }
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const int64_t start = starts[i], limit = limits[i], stride = strides[i];
    const std::string range = absl::StrCat("[", start, ":", limit, ":", stride, "]");
    if (stride <= 0) return Invalid("slice dimension ", i, " ", range, ": the stride must be positive");
    if (start < 0 || start > limit || limit > operand.dimensions(i)) {
      return Invalid("slice dimension ", i, " ", range, " is not within [0:",
                     operand.dimensions(i), "] of ", Text(operand));
    }
    const int64_t size = (limit - start) / stride + ((limit - start) % stride != 0 ? 1 : 0);
    dims.push_back(size);
    // Slicing a single element out of a dynamic dimension makes it static.
    dynamic.push_back(size != 1 && operand.is_dynamic_dimension(i));
  }
  return MakeArray(operand.element_type(), dims, dynamic);
}

namespace {

// Start indices of dynamic-slice / dynamic-update-slice: `rank` integer
// scalars of one type, or (old form) a single rank-1 integer array of length
// `rank`.
absl::Status CheckStartIndices(Shapes indices, const Shape& operand, absl::string_view op) {
  if (indices.size() == 1 && indices[0]->rank() == 1) {
    const Shape& vector = *indices[0];
    if (!IsIntegralType(vector.element_type())) {
      return Invalid(op, " start indices must be integers, but are ", Text(vector));
    }
    if (vector.dimensions(0) != operand.rank()) {
      return Invalid(op, " has start indices ", Text(vector), " for an operand of rank ",
                     operand.rank());
    }
    return absl::OkStatus();
  }
  if (int64_t(indices.size()) != operand.rank()) {
    return Invalid(op, " needs one start index per dimension of ", Text(operand), ", but has ",
                   indices.size());
  }
  for (const Shape* index : indices) {
    if (!index->IsScalar() || !IsIntegralType(index->element_type())) {
      return Invalid(op, " start indices must be integer scalars, but one is ", Text(*index));
    }
    if (index->element_type() != indices[0]->element_type()) {
      return Invalid(op, " start indices must have one type, but got ", Text(*indices[0]),
                     " and ", Text(*index));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> ShapeInference::InferDynamicSliceShape(
    const Shape& operand, Shapes start_indices, absl::Span<const int64_t> slice_sizes) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of dynamic-slice"));
  SYSTOLIC_RETURN_IF_ERROR(CheckStartIndices(start_indices, operand, "dynamic-slice"));
  if (int64_t(slice_sizes.size()) != operand.rank()) {
    return Invalid("dynamic_slice_sizes=", Braced(slice_sizes), " needs one size per dimension of ",
                   Text(operand));
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (slice_sizes[i] < 0 || slice_sizes[i] > operand.dimensions(i)) {
      return Invalid("dynamic_slice_sizes=", Braced(slice_sizes), ": size ", slice_sizes[i],
                     " of dimension ", i, " is not within [0, ", operand.dimensions(i), "] of ",
                     Text(operand));
    }
  }
  return Shape(operand.element_type(), slice_sizes);
}

absl::StatusOr<Shape> ShapeInference::InferDynamicUpdateSliceShape(const Shape& operand,
                                                                   const Shape& update,
                                                                   Shapes start_indices) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of dynamic-update-slice"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(update, "the update of dynamic-update-slice"));
  SYSTOLIC_RETURN_IF_ERROR(CheckStartIndices(start_indices, operand, "dynamic-update-slice"));
  if (update.rank() != operand.rank()) {
    return Invalid("dynamic-update-slice needs an update of the operand's rank, but got ",
                   Text(update), " for ", Text(operand));
  }
  if (!SameElementTypeIgnoringFpPrecision(operand.element_type(), update.element_type())) {
    return Invalid("dynamic-update-slice needs an update of the operand's element type, but got ",
                   Text(update), " for ", Text(operand));
  }
  Shape result = WithoutLayout(operand);
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (update.dimensions(i) < 0 || update.dimensions(i) > operand.dimensions(i)) {
      return Invalid("dynamic-update-slice: the update ", Text(update),
                     " does not fit in the operand ", Text(operand), " along dimension ", i);
    }
    // A dynamic update covering a whole dimension makes the result dynamic.
    if (update.is_dynamic_dimension(i) && update.dimensions(i) == operand.dimensions(i)) {
      result.set_dynamic_dimension(i, true);
    }
  }
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferConcatOpShape(Shapes operands, int64_t dimension) {
  if (operands.empty()) return Invalid("concatenate needs at least one operand");
  const Shape& first = *operands[0];
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(first, "every operand of concatenate"));
  if (dimension < 0 || dimension >= first.rank()) {
    return Invalid("concatenate dimensions={", dimension, "} is out of range for ", Text(first));
  }
  PrimitiveType type = first.element_type();
  std::vector<int64_t> dims = first.dimensions();
  std::vector<bool> dynamic = DynamicFlags(first);
  for (size_t k = 1; k < operands.size(); ++k) {
    const Shape& s = *operands[k];
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(s, "every operand of concatenate"));
    if (!SameElementTypeIgnoringFpPrecision(s.element_type(), first.element_type())) {
      return Invalid("concatenate needs operands of one element type, but got ", Text(first),
                     " and ", Text(s));
    }
    if (s.rank() != first.rank()) {
      return Invalid("concatenate needs operands of one rank, but got ", Text(first), " and ",
                     Text(s));
    }
    for (int64_t i = 0; i < s.rank(); ++i) {
      if (i != dimension && s.dimensions(i) != first.dimensions(i)) {
        return Invalid("concatenate along dimension ", dimension,
                       " needs operands equal in every other dimension, but got ", Text(first),
                       " and ", Text(s));
      }
      if (s.is_dynamic_dimension(i)) dynamic[i] = true;
    }
    if (!CheckedAdd(dims[dimension], s.dimensions(dimension), &dims[dimension])) {
      return Invalid("concatenate: the result dimension overflows");
    }
    type = HigherPrecisionType(type, s.element_type());
  }
  return MakeArray(type, dims, dynamic);
}

absl::StatusOr<Shape> ShapeInference::InferPadShape(const Shape& operand,
                                                    const Shape& padding_value,
                                                    const PaddingConfig& padding) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of pad"));
  if (!padding_value.IsScalar()) {
    return Invalid("the padding value of pad must be a scalar, but is ", Text(padding_value));
  }
  if (!SameElementTypeIgnoringFpPrecision(operand.element_type(), padding_value.element_type())) {
    return Invalid("pad needs a padding value of the operand's element type, but got ",
                   Text(padding_value), " for ", Text(operand));
  }
  if (int64_t(padding.dimensions.size()) != operand.rank()) {
    return Invalid("padding=", padding.ToString(), " has ", padding.dimensions.size(),
                   " dimensions but the operand ", Text(operand), " has rank ", operand.rank());
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const PaddingDimension& p = padding.dimensions[i];
    if (p.interior_padding < 0) {
      return Invalid("padding=", padding.ToString(), ": interior padding of dimension ", i,
                     " is negative");
    }
    // low + high + size + (size - 1) * interior
    const int64_t size = operand.dimensions(i);
    int64_t interior = 0, total = 0;
    if (!CheckedMul(std::max<int64_t>(size - 1, 0), p.interior_padding, &interior) ||
        !CheckedAdd(size, interior, &total) || !CheckedAdd(total, p.edge_padding_low, &total) ||
        !CheckedAdd(total, p.edge_padding_high, &total)) {
      return Invalid("padding=", padding.ToString(), ": dimension ", i, " overflows");
    }
    if (total < 0) {
      return Invalid("padding=", padding.ToString(), " makes dimension ", i, " of ", Text(operand),
                     " negative (", total, ")");
    }
    dims.push_back(total);
  }
  return MakeArray(HigherPrecisionType(operand.element_type(), padding_value.element_type()), dims,
                   DynamicFlags(operand));
}

absl::StatusOr<Shape> ShapeInference::InferIotaShape(const Shape& shape, int64_t iota_dimension) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(shape, "the result of iota"));
  const PrimitiveType type = shape.element_type();
  if (!IsIntegralType(type) && !IsFloatingPointType(type) && !IsComplexType(type)) {
    return Invalid("iota cannot produce ", Text(type), " elements");
  }
  if (shape.rank() == 0) return Invalid("iota cannot produce a scalar");
  if (iota_dimension < 0 || iota_dimension >= shape.rank()) {
    return Invalid("iota_dimension=", iota_dimension, " is out of range for ", Text(shape));
  }
  return WithoutLayout(shape);
}

absl::StatusOr<Shape> ShapeInference::InferGatherShape(const Shape& operand,
                                                       const Shape& start_indices,
                                                       const GatherDimensionNumbers& dnums,
                                                       absl::Span<const int64_t> slice_sizes) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of gather"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(start_indices, "the start indices of gather"));
  SYSTOLIC_ASSIGN_OR_RETURN(IndexVectorLayout indices,
                            SplitIndices(start_indices, dnums.index_vector_dim, "gather"));
  const int64_t rank = operand.rank();
  const std::string operand_text = absl::StrCat("the operand ", Text(operand));
  const std::string indices_text = absl::StrCat("the start indices ", Text(start_indices));
  const int64_t output_rank =
      int64_t(dnums.offset_dims.size()) + int64_t(indices.batch_dimensions.size());

  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.offset_dims, output_rank, "offset_dims",
                                              absl::StrCat("an output of rank ", output_rank),
                                              /*sorted=*/true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.collapsed_slice_dims, rank,
                                              "collapsed_slice_dims", operand_text, true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.operand_batching_dims, rank,
                                              "operand_batching_dims", operand_text, true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.start_indices_batching_dims,
                                              start_indices.rank(), "start_indices_batching_dims",
                                              indices_text));
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(dnums.start_index_map, rank, "start_index_map", operand_text));
  if (Contains(dnums.start_indices_batching_dims, dnums.index_vector_dim)) {
    return Invalid("start_indices_batching_dims=", Braced(dnums.start_indices_batching_dims),
                   " must not contain index_vector_dim=", dnums.index_vector_dim);
  }
  for (int64_t d : dnums.operand_batching_dims) {
    if (Contains(dnums.collapsed_slice_dims, d) || Contains(dnums.start_index_map, d)) {
      return Invalid("operand batching dimension ", d,
                     " must not also be in collapsed_slice_dims or start_index_map");
    }
  }
  if (dnums.operand_batching_dims.size() != dnums.start_indices_batching_dims.size()) {
    return Invalid("operand_batching_dims=", Braced(dnums.operand_batching_dims),
                   " and start_indices_batching_dims=",
                   Braced(dnums.start_indices_batching_dims), " must have the same length");
  }
  for (size_t i = 0; i < dnums.operand_batching_dims.size(); ++i) {
    const int64_t a = operand.dimensions(dnums.operand_batching_dims[i]);
    const int64_t b = start_indices.dimensions(dnums.start_indices_batching_dims[i]);
    if (a != b) {
      return Invalid("gather batching dimensions differ in size: operand dimension ",
                     dnums.operand_batching_dims[i], " is ", a, ", start indices dimension ",
                     dnums.start_indices_batching_dims[i], " is ", b);
    }
  }
  if (int64_t(dnums.start_index_map.size()) != indices.vector_size) {
    return Invalid("start_index_map=", Braced(dnums.start_index_map), " must have one entry per "
                   "element of the index vector (",
                   indices.vector_size, ")");
  }
  if (int64_t(slice_sizes.size()) != rank) {
    return Invalid("slice_sizes=", Braced(slice_sizes), " needs one size per dimension of ",
                   operand_text);
  }
  const int64_t covered = int64_t(dnums.offset_dims.size() + dnums.collapsed_slice_dims.size() +
                                  dnums.operand_batching_dims.size());
  if (covered != rank) {
    return Invalid("every operand dimension must be an offset, collapsed or batching dimension: ",
                   dnums.offset_dims.size(), " + ", dnums.collapsed_slice_dims.size(), " + ",
                   dnums.operand_batching_dims.size(), " != rank ", rank, " of ", operand_text);
  }
  for (int64_t i = 0; i < rank; ++i) {
    if (slice_sizes[i] < 0 || slice_sizes[i] > operand.dimensions(i)) {
      return Invalid("slice_sizes=", Braced(slice_sizes), ": size ", slice_sizes[i],
                     " of dimension ", i, " is not within [0, ", operand.dimensions(i), "]");
    }
  }
  for (int64_t d : dnums.collapsed_slice_dims) {
    if (slice_sizes[d] > 1) {
      return Invalid("collapsed dimension ", d, " must have slice size 0 or 1, not ",
                     slice_sizes[d]);
    }
  }
  for (int64_t d : dnums.operand_batching_dims) {
    if (slice_sizes[d] > 1) {
      return Invalid("batching dimension ", d, " must have slice size 0 or 1, not ",
                     slice_sizes[d]);
    }
  }

  // Offset dimensions take the slice sizes of the kept operand dimensions in
  // order; the other output dimensions are the batch dimensions of the indices.
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < rank; ++i) {
    if (!Contains(dnums.collapsed_slice_dims, i) && !Contains(dnums.operand_batching_dims, i)) {
      kept.push_back(i);
    }
  }
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  size_t next_offset = 0, next_batch = 0;
  for (int64_t i = 0; i < output_rank; ++i) {
    if (Contains(dnums.offset_dims, i)) {
      const int64_t d = kept[next_offset++];
      dims.push_back(slice_sizes[d]);
      dynamic.push_back(operand.is_dynamic_dimension(d) && slice_sizes[d] == operand.dimensions(d));
    } else {
      const int64_t d = indices.batch_dimensions[next_batch++];
      dims.push_back(start_indices.dimensions(d));
      dynamic.push_back(start_indices.is_dynamic_dimension(d));
    }
  }
  return MakeArray(operand.element_type(), dims, dynamic);
}

absl::StatusOr<Shape> ShapeInference::InferScatterShape(Shapes operands,
                                                        const ProgramShape& to_apply,
                                                        const ScatterDimensionNumbers& dnums) {
  if (operands.size() < 3 || operands.size() % 2 != 1) {
    return Invalid("scatter needs N inputs, the indices and N updates, but has ", operands.size(),
                   " operands");
  }
  const size_t n = (operands.size() - 1) / 2;
  Shapes inputs = operands.subspan(0, n);
  const Shape& indices_shape = *operands[n];
  Shapes updates = operands.subspan(n + 1, n);
  for (size_t i = 0; i < n; ++i) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*inputs[i], "every input of scatter"));
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*updates[i], "every update of scatter"));
    if (!SameDimensions(*inputs[i], *inputs[0])) {
      return Invalid("scatter needs inputs of one dimensions, but got ", ShapesText(inputs));
    }
    if (!SameDimensions(*updates[i], *updates[0])) {
      return Invalid("scatter needs updates of one dimensions, but got ", ShapesText(updates));
    }
    if (!SameElementTypeIgnoringFpPrecision(updates[i]->element_type(),
                                            inputs[i]->element_type())) {
      return Invalid("scatter update ", Text(*updates[i]), " does not have the element type of "
                     "its input ",
                     Text(*inputs[i]));
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(indices_shape, "the indices of scatter"));
  SYSTOLIC_ASSIGN_OR_RETURN(IndexVectorLayout indices,
                            SplitIndices(indices_shape, dnums.index_vector_dim, "scatter"));

  // The reducer combines an input element with an update element.
  std::vector<Shape> init_scalars;
  std::vector<PrimitiveType> update_types;
  for (size_t i = 0; i < n; ++i) {
    init_scalars.push_back(Shape(inputs[i]->element_type(), {}));
    update_types.push_back(updates[i]->element_type());
  }
  std::vector<const Shape*> init_ptrs;
  for (const Shape& s : init_scalars) init_ptrs.push_back(&s);
  SYSTOLIC_RETURN_IF_ERROR(VerifyReducerShape(to_apply, init_ptrs, update_types, int64_t(n)));

  const Shape& input = *inputs[0];
  const Shape& update = *updates[0];
  const int64_t rank = input.rank();
  const std::string input_text = absl::StrCat("the input ", Text(input));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.update_window_dims, update.rank(),
                                              "update_window_dims",
                                              absl::StrCat("the updates ", Text(update)), true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.inserted_window_dims, rank,
                                              "inserted_window_dims", input_text, true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.input_batching_dims, rank,
                                              "input_batching_dims", input_text, true));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(
      dnums.scatter_indices_batching_dims, indices_shape.rank(), "scatter_indices_batching_dims",
      absl::StrCat("the indices ", Text(indices_shape))));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.scatter_dims_to_operand_dims, rank,
                                              "scatter_dims_to_operand_dims", input_text));
  if (Contains(dnums.scatter_indices_batching_dims, dnums.index_vector_dim)) {
    return Invalid("scatter_indices_batching_dims=", Braced(dnums.scatter_indices_batching_dims),
                   " must not contain index_vector_dim=", dnums.index_vector_dim);
  }
  for (int64_t d : dnums.input_batching_dims) {
    if (Contains(dnums.inserted_window_dims, d) || Contains(dnums.scatter_dims_to_operand_dims, d)) {
      return Invalid("input batching dimension ", d,
                     " must not also be in inserted_window_dims or scatter_dims_to_operand_dims");
    }
  }
  if (dnums.input_batching_dims.size() != dnums.scatter_indices_batching_dims.size()) {
    return Invalid("input_batching_dims=", Braced(dnums.input_batching_dims),
                   " and scatter_indices_batching_dims=",
                   Braced(dnums.scatter_indices_batching_dims), " must have the same length");
  }
  for (size_t i = 0; i < dnums.input_batching_dims.size(); ++i) {
    const int64_t a = input.dimensions(dnums.input_batching_dims[i]);
    const int64_t b = indices_shape.dimensions(dnums.scatter_indices_batching_dims[i]);
    if (a != b) {
      return Invalid("scatter batching dimensions differ in size: input dimension ",
                     dnums.input_batching_dims[i], " is ", a, ", indices dimension ",
                     dnums.scatter_indices_batching_dims[i], " is ", b);
    }
  }
  if (int64_t(dnums.scatter_dims_to_operand_dims.size()) != indices.vector_size) {
    return Invalid("scatter_dims_to_operand_dims=", Braced(dnums.scatter_dims_to_operand_dims),
                   " must have one entry per element of the index vector (", indices.vector_size,
                   ")");
  }
  const int64_t covered = int64_t(dnums.update_window_dims.size() +
                                  dnums.inserted_window_dims.size() +
                                  dnums.input_batching_dims.size());
  if (covered != rank) {
    return Invalid("every input dimension must be an update window, inserted or batching "
                   "dimension: ",
                   dnums.update_window_dims.size(), " + ", dnums.inserted_window_dims.size(), " + ",
                   dnums.input_batching_dims.size(), " != rank ", rank, " of ", input_text);
  }
  const int64_t expected_update_rank =
      int64_t(dnums.update_window_dims.size() + indices.batch_dimensions.size());
  if (update.rank() != expected_update_rank) {
    return Invalid("scatter updates must have rank ", expected_update_rank,
                   " (update window dimensions + index batch dimensions), but are ", Text(update));
  }
  // Window dimensions of the updates fit in the kept input dimensions, in
  // order; the other update dimensions equal the indices' batch dimensions.
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < rank; ++i) {
    if (!Contains(dnums.inserted_window_dims, i) && !Contains(dnums.input_batching_dims, i)) {
      kept.push_back(i);
    }
  }
  size_t next_window = 0, next_batch = 0;
  for (int64_t i = 0; i < update.rank(); ++i) {
    if (Contains(dnums.update_window_dims, i)) {
      const int64_t d = kept[next_window++];
      if (update.dimensions(i) > input.dimensions(d)) {
        return Invalid("scatter update window dimension ", i, " (size ", update.dimensions(i),
                       ") is larger than input dimension ", d, " (size ", input.dimensions(d), ")");
      }
    } else {
      const int64_t d = indices.batch_dimensions[next_batch++];
      if (update.dimensions(i) != indices_shape.dimensions(d)) {
        return Invalid("scatter update dimension ", i, " (size ", update.dimensions(i),
                       ") must equal indices dimension ", d, " (size ", indices_shape.dimensions(d),
                       ")");
      }
    }
  }
  if (n == 1) return WithoutLayout(input);
  std::vector<Shape> results;
  for (const Shape* s : inputs) results.push_back(WithoutLayout(*s));
  return Shape::MakeTuple(std::move(results));
}

absl::StatusOr<Shape> ShapeInference::InferGetDimensionSizeShape(const Shape& operand,
                                                                 int64_t dimension) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of get-dimension-size"));
  if (dimension < 0 || dimension >= operand.rank()) {
    return Invalid("get-dimension-size dimensions={", dimension, "} is out of range for ",
                   Text(operand));
  }
  if (operand.dimensions(dimension) > INT32_MAX) {
    return Invalid("get-dimension-size: dimension ", dimension, " of ", Text(operand),
                   " does not fit in s32");
  }
  return Shape(S32, {});
}

absl::StatusOr<Shape> ShapeInference::InferSetDimensionSizeShape(const Shape& operand,
                                                                 const Shape& size,
                                                                 int64_t dimension) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of set-dimension-size"));
  if (dimension < 0 || dimension >= operand.rank()) {
    return Invalid("set-dimension-size dimensions={", dimension, "} is out of range for ",
                   Text(operand));
  }
  if (!IsScalarOfType(size, S32)) {
    return Invalid("the size of set-dimension-size must be s32[], but is ", Text(size));
  }
  if (operand.dimensions(dimension) > INT32_MAX) {
    return Invalid("set-dimension-size: dimension ", dimension, " of ", Text(operand),
                   " does not fit in s32");
  }
  Shape result = WithoutLayout(operand);
  result.set_dynamic_dimension(dimension, true);
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferTopKShape(const Shape& operand, int64_t k) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of topk"));
  if (operand.rank() == 0) return Invalid("topk needs an operand of rank 1 or more");
  const int64_t last = operand.rank() - 1;
  if (k < 0 || k > operand.dimensions(last)) {
    return Invalid("topk k=", k, " is not within [0, ", operand.dimensions(last),
                   "] (the minor dimension of ", Text(operand), ")");
  }
  std::vector<int64_t> dims = operand.dimensions();
  std::vector<bool> dynamic = DynamicFlags(operand);
  dims[last] = k;
  dynamic[last] = false;
  return Shape::MakeTuple(
      {MakeArray(operand.element_type(), dims, dynamic), MakeArray(S32, dims, dynamic)});
}

// --- Contractions ------------------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferDotOpShape(const Shape& lhs, const Shape& rhs,
                                                      const DotDimensionNumbers& dnums,
                                                      std::optional<PrimitiveType> preferred_type) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(lhs, "the lhs of dot"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(rhs, "the rhs of dot"));
  const std::string lhs_text = absl::StrCat("the lhs ", Text(lhs));
  const std::string rhs_text = absl::StrCat("the rhs ", Text(rhs));
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(dnums.lhs_batch_dimensions, lhs.rank(), "lhs_batch_dims", lhs_text));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.lhs_contracting_dimensions, lhs.rank(),
                                              "lhs_contracting_dims", lhs_text));
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(dnums.rhs_batch_dimensions, rhs.rank(), "rhs_batch_dims", rhs_text));
  SYSTOLIC_RETURN_IF_ERROR(CheckDimensionList(dnums.rhs_contracting_dimensions, rhs.rank(),
                                              "rhs_contracting_dims", rhs_text));
  for (int64_t d : dnums.lhs_batch_dimensions) {
    if (Contains(dnums.lhs_contracting_dimensions, d)) {
      return Invalid("lhs dimension ", d, " cannot be both a batch and a contracting dimension");
    }
  }
  for (int64_t d : dnums.rhs_batch_dimensions) {
    if (Contains(dnums.rhs_contracting_dimensions, d)) {
      return Invalid("rhs dimension ", d, " cannot be both a batch and a contracting dimension");
    }
  }
  if (dnums.lhs_contracting_dimensions.size() != dnums.rhs_contracting_dimensions.size()) {
    return Invalid("dot needs as many lhs as rhs contracting dimensions, but has ",
                   Braced(dnums.lhs_contracting_dimensions), " and ",
                   Braced(dnums.rhs_contracting_dimensions));
  }
  if (dnums.lhs_batch_dimensions.size() != dnums.rhs_batch_dimensions.size()) {
    return Invalid("dot needs as many lhs as rhs batch dimensions, but has ",
                   Braced(dnums.lhs_batch_dimensions), " and ", Braced(dnums.rhs_batch_dimensions));
  }
  for (size_t i = 0; i < dnums.lhs_contracting_dimensions.size(); ++i) {
    const int64_t l = dnums.lhs_contracting_dimensions[i], r = dnums.rhs_contracting_dimensions[i];
    if (lhs.dimensions(l) != rhs.dimensions(r)) {
      return Invalid("dot contracts lhs dimension ", l, " (size ", lhs.dimensions(l),
                     ") with rhs dimension ", r, " (size ", rhs.dimensions(r),
                     "); the sizes must be equal");
    }
  }
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  for (size_t i = 0; i < dnums.lhs_batch_dimensions.size(); ++i) {
    const int64_t l = dnums.lhs_batch_dimensions[i], r = dnums.rhs_batch_dimensions[i];
    if (lhs.dimensions(l) != rhs.dimensions(r)) {
      return Invalid("dot batch dimension ", i, " has size ", lhs.dimensions(l), " in the lhs and ",
                     rhs.dimensions(r), " in the rhs");
    }
    dims.push_back(lhs.dimensions(l));
    dynamic.push_back(lhs.is_dynamic_dimension(l) || rhs.is_dynamic_dimension(r));
  }
  auto add_free = [&](const Shape& s, const DotDimensionNumbers& d, bool is_lhs) {
    const auto& batch = is_lhs ? d.lhs_batch_dimensions : d.rhs_batch_dimensions;
    const auto& contracting = is_lhs ? d.lhs_contracting_dimensions : d.rhs_contracting_dimensions;
    for (int64_t i = 0; i < s.rank(); ++i) {
      if (Contains(batch, i) || Contains(contracting, i)) continue;
      dims.push_back(s.dimensions(i));
      dynamic.push_back(s.is_dynamic_dimension(i));
    }
  };
  add_free(lhs, dnums, true);
  add_free(rhs, dnums, false);
  SYSTOLIC_ASSIGN_OR_RETURN(
      PrimitiveType type,
      ResultElementType(HigherPrecisionType(lhs.element_type(), rhs.element_type()),
                        preferred_type));
  return MakeArray(type, dims, dynamic);
}

absl::StatusOr<Shape> ShapeInference::InferConvolveShape(
    const Shape& lhs, const Shape& rhs, int64_t feature_group_count, int64_t batch_group_count,
    const Window& window, const ConvolutionDimensionNumbers& dnums,
    std::optional<PrimitiveType> preferred_type) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(lhs, "the input of convolution"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(rhs, "the kernel of convolution"));
  if (feature_group_count <= 0) {
    return Invalid("feature_group_count=", feature_group_count, " must be positive");
  }
  if (batch_group_count <= 0) {
    return Invalid("batch_group_count=", batch_group_count, " must be positive");
  }
  if (feature_group_count > 1 && batch_group_count > 1) {
    return Invalid("feature_group_count=", feature_group_count, " and batch_group_count=",
                   batch_group_count, " cannot both be greater than 1");
  }
  const size_t spatial = dnums.input_spatial_dimensions.size();
  if (dnums.kernel_spatial_dimensions.size() != spatial ||
      dnums.output_spatial_dimensions.size() != spatial) {
    return Invalid("dim_labels=", dnums.ToDimLabels(),
                   " give the input, kernel and output different numbers of spatial dimensions");
  }
  if (window.dimensions.size() != spatial) {
    return Invalid("the window has ", window.dimensions.size(), " dimensions but dim_labels=",
                   dnums.ToDimLabels(), " has ", spatial, " spatial dimensions");
  }
  const int64_t rank = int64_t(spatial) + 2;
  if (lhs.rank() != rank || rhs.rank() != rank) {
    return Invalid("dim_labels=", dnums.ToDimLabels(), " needs input and kernel of rank ", rank,
                   ", but got ", Text(lhs), " and ", Text(rhs));
  }
  // Each of the input, kernel and output labels names every dimension once.
  auto check_labels = [&](int64_t a, int64_t b, const std::vector<int64_t>& s,
                          absl::string_view what) -> absl::Status {
    std::vector<int64_t> all = {a, b};
    all.insert(all.end(), s.begin(), s.end());
    for (int64_t d : all) {
      if (d < 0 || d >= rank || std::count(all.begin(), all.end(), d) != 1) {
        return Invalid("dim_labels=", dnums.ToDimLabels(), ": the ", what,
                       " labels must name each of its ", rank, " dimensions exactly once");
      }
    }
    return absl::OkStatus();
  };
  SYSTOLIC_RETURN_IF_ERROR(check_labels(dnums.input_batch_dimension, dnums.input_feature_dimension,
                                        dnums.input_spatial_dimensions, "input"));
  SYSTOLIC_RETURN_IF_ERROR(check_labels(dnums.kernel_input_feature_dimension,
                                        dnums.kernel_output_feature_dimension,
                                        dnums.kernel_spatial_dimensions, "kernel"));
  SYSTOLIC_RETURN_IF_ERROR(check_labels(dnums.output_batch_dimension,
                                        dnums.output_feature_dimension,
                                        dnums.output_spatial_dimensions, "output"));

  const int64_t input_batch = lhs.dimensions(dnums.input_batch_dimension);
  const int64_t input_features = lhs.dimensions(dnums.input_feature_dimension);
  const int64_t kernel_input_features = rhs.dimensions(dnums.kernel_input_feature_dimension);
  const int64_t kernel_output_features = rhs.dimensions(dnums.kernel_output_feature_dimension);
  const std::string operands = absl::StrCat(" (input ", Text(lhs), ", kernel ", Text(rhs), ")");
  if (kernel_output_features % batch_group_count != 0) {
    return Invalid("the kernel's output features (", kernel_output_features,
                   ") must be a multiple of batch_group_count=", batch_group_count, operands);
  }
  if (input_features % feature_group_count != 0 ||
      input_features / feature_group_count != kernel_input_features) {
    return Invalid("the input features (", input_features, ") divided by feature_group_count=",
                   feature_group_count, " must equal the kernel's input features (",
                   kernel_input_features, ")", operands);
  }
  if (kernel_output_features % feature_group_count != 0) {
    return Invalid("the kernel's output features (", kernel_output_features,
                   ") must be a multiple of feature_group_count=", feature_group_count, operands);
  }
  if (input_batch % batch_group_count != 0) {
    return Invalid("the input batch (", input_batch, ") must be a multiple of batch_group_count=",
                   batch_group_count, operands);
  }
  std::vector<int64_t> dims(rank);
  std::vector<bool> dynamic(rank);
  dims[dnums.output_batch_dimension] = input_batch / batch_group_count;
  dims[dnums.output_feature_dimension] = kernel_output_features;
  dynamic[dnums.output_batch_dimension] = lhs.is_dynamic_dimension(dnums.input_batch_dimension);
  if (rhs.is_dynamic_dimension(dnums.kernel_output_feature_dimension)) {
    return Invalid("the kernel's output feature dimension cannot be dynamic", operands);
  }
  for (size_t i = 0; i < spatial; ++i) {
    const WindowDimension& w = window.dimensions[i];
    SYSTOLIC_RETURN_IF_ERROR(CheckWindowDimension(w, i));
    const int64_t kernel_size = rhs.dimensions(dnums.kernel_spatial_dimensions[i]);
    if (w.size != kernel_size) {
      return Invalid("window dimension ", i, " has size ", w.size,
                     " but the kernel's spatial dimension ", i, " is ", kernel_size, operands);
    }
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t out,
                              WindowedSize(lhs.dimensions(dnums.input_spatial_dimensions[i]), w, i));
    dims[dnums.output_spatial_dimensions[i]] = out;
    dynamic[dnums.output_spatial_dimensions[i]] =
        lhs.is_dynamic_dimension(dnums.input_spatial_dimensions[i]) ||
        rhs.is_dynamic_dimension(dnums.kernel_spatial_dimensions[i]);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(
      PrimitiveType type,
      ResultElementType(HigherPrecisionType(lhs.element_type(), rhs.element_type()),
                        preferred_type));
  return MakeArray(type, dims, dynamic);
}

// --- Reductions and windows ---------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferReduceShape(Shapes operands,
                                                       absl::Span<const int64_t> dimensions,
                                                       const ProgramShape& to_apply) {
  if (operands.empty() || operands.size() % 2 != 0) {
    return Invalid("reduce needs N inputs followed by N init values, but has ", operands.size(),
                   " operands");
  }
  const size_t n = operands.size() / 2;
  Shapes inputs = operands.subspan(0, n);
  Shapes inits = operands.subspan(n, n);
  for (const Shape* s : inputs) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*s, "every input of reduce"));
    if (!SameDimensions(*s, *inputs[0])) {
      return Invalid("reduce needs inputs of the same dimensions, but got ", ShapesText(inputs));
    }
  }
  const Shape& input = *inputs[0];
  SYSTOLIC_RETURN_IF_ERROR(
      CheckDimensionList(dimensions, input.rank(), "reduce dimensions", Text(input)));
  std::vector<PrimitiveType> types;
  for (const Shape* s : inputs) types.push_back(s->element_type());
  SYSTOLIC_RETURN_IF_ERROR(VerifyReducerShape(to_apply, inits, types, int64_t(n)));

  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  for (int64_t i = 0; i < input.rank(); ++i) {
    if (Contains(dimensions, i)) continue;
    dims.push_back(input.dimensions(i));
    dynamic.push_back(input.is_dynamic_dimension(i));
  }
  if (to_apply.result.IsArray()) return MakeArray(to_apply.result.element_type(), dims, dynamic);
  std::vector<Shape> results;
  for (const Shape& acc : to_apply.result.tuple_shapes()) {
    results.push_back(MakeArray(acc.element_type(), dims, dynamic));
  }
  return Shape::MakeTuple(std::move(results));
}

absl::StatusOr<Shape> ShapeInference::InferWindowOutputShape(const Shape& base,
                                                             const Window& window,
                                                             PrimitiveType element_type) {
  if (int64_t(window.dimensions.size()) != base.rank()) {
    return Invalid("the window has ", window.dimensions.size(), " dimensions but the operand ",
                   Text(base), " has rank ", base.rank());
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i < window.dimensions.size(); ++i) {
    const WindowDimension& w = window.dimensions[i];
    SYSTOLIC_RETURN_IF_ERROR(CheckWindowDimension(w, i));
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t out, WindowedSize(base.dimensions(i), w, i));
    dims.push_back(out);
  }
  return MakeArray(element_type, dims, DynamicFlags(base));
}

absl::StatusOr<Shape> ShapeInference::InferReduceWindowShape(Shapes inputs, Shapes init_values,
                                                             const Window& window,
                                                             const ProgramShape& to_apply) {
  if (inputs.empty() || inputs.size() != init_values.size()) {
    return Invalid("reduce-window needs N inputs followed by N init values, but has ",
                   inputs.size() + init_values.size(), " operands");
  }
  for (const Shape* s : inputs) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*s, "every input of reduce-window"));
    if (!SameDimensions(*s, *inputs[0])) {
      return Invalid("reduce-window needs inputs of the same dimensions, but got ",
                     ShapesText(inputs));
    }
  }
  std::vector<PrimitiveType> types;
  for (const Shape* s : inputs) types.push_back(s->element_type());
  SYSTOLIC_RETURN_IF_ERROR(VerifyReducerShape(to_apply, init_values, types, int64_t(inputs.size())));
  std::vector<Shape> results;
  for (size_t i = 0; i < inputs.size(); ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(
        Shape out, InferWindowOutputShape(*inputs[i], window, init_values[i]->element_type()));
    results.push_back(std::move(out));
  }
  if (results.size() == 1) return results[0];
  return Shape::MakeTuple(std::move(results));
}

absl::StatusOr<Shape> ShapeInference::InferSelectAndScatterShape(
    const Shape& operand, const ProgramShape& select, const Window& window, const Shape& source,
    const Shape& init_value, const ProgramShape& scatter) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of select-and-scatter"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(source, "the source of select-and-scatter"));
  // select: (T, T) -> pred[]
  const std::string signature = select.ToString(false);
  if (select.parameters.size() != 2) {
    return Invalid("the select computation ", signature, " must take 2 parameters");
  }
  if (!IsScalarOfType(select.result, PRED)) {
    return Invalid("the select computation ", signature, " must return pred[]");
  }
  const Shape element(operand.element_type(), {});
  for (const Shape& p : select.parameters) {
    if (!CompatibleIgnoringFpPrecision(element, p)) {
      return Invalid("the select computation ", signature, " must take scalars of the operand's "
                     "element type ",
                     Text(operand.element_type()));
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyReducerShape(scatter, {&init_value}, {source.element_type()}, 1));
  SYSTOLIC_ASSIGN_OR_RETURN(Shape windowed,
                            InferWindowOutputShape(operand, window, operand.element_type()));
  if (!CompatibleIgnoringFpPrecision(source, windowed)) {
    return Invalid("the source ", Text(source), " of select-and-scatter must have the shape of "
                   "the windowed operand ",
                   Text(windowed));
  }
  return WithoutLayout(operand);
}

absl::StatusOr<Shape> ShapeInference::InferSortShape(Shapes operands, int64_t dimension,
                                                     const ProgramShape& comparator) {
  if (operands.empty()) return Invalid("sort needs at least one operand");
  for (const Shape* s : operands) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*s, "every operand of sort"));
    if (!SameDimensions(*s, *operands[0])) {
      return Invalid("sort needs operands of the same dimensions, but got ", ShapesText(operands));
    }
  }
  if (dimension < 0 || dimension >= operands[0]->rank()) {
    return Invalid("sort dimensions={", dimension, "} is out of range for ", Text(*operands[0]));
  }
  // The comparator takes a pair of scalars per operand and returns pred[].
  const std::string signature = comparator.ToString(false);
  if (comparator.parameters.size() != 2 * operands.size()) {
    return Invalid("the sort comparator ", signature, " must take ", 2 * operands.size(),
                   " parameters (two per operand)");
  }
  if (!IsScalarOfType(comparator.result, PRED)) {
    return Invalid("the sort comparator ", signature, " must return pred[]");
  }
  for (size_t i = 0; i < comparator.parameters.size(); ++i) {
    const Shape& p = comparator.parameters[i];
    const PrimitiveType expected = operands[i / 2]->element_type();
    if (!p.IsScalar() || !SameElementTypeIgnoringFpPrecision(p.element_type(), expected)) {
      return Invalid("the sort comparator ", signature, ": parameter ", i, " must be ",
                     Text(Shape(expected, {})));
    }
  }
  if (operands.size() == 1) return WithoutLayout(*operands[0]);
  return InferTupleShape(operands);
}

// --- Tuples and control flow -----------------------------------------------------

Shape ShapeInference::InferTupleShape(Shapes elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const Shape* s : elements) shapes.push_back(*s);
  return Shape::MakeTuple(std::move(shapes));
}

absl::StatusOr<Shape> ShapeInference::InferGetTupleElementShape(const Shape& tuple,
                                                                int64_t index) {
  if (!tuple.IsTuple()) {
    return Invalid("get-tuple-element needs a tuple operand, but got ", Text(tuple));
  }
  if (index < 0 || index >= tuple.tuple_shapes_size()) {
    return Invalid("get-tuple-element index=", index, " is out of range for ", Text(tuple));
  }
  return tuple.tuple_shapes(index);
}

absl::StatusOr<Shape> ShapeInference::InferWhileShape(const ProgramShape& condition,
                                                      const ProgramShape& body,
                                                      const Shape& init) {
  if (condition.parameters.size() != 1) {
    return Invalid("the while condition ", condition.ToString(false), " must take 1 parameter");
  }
  if (body.parameters.size() != 1) {
    return Invalid("the while body ", body.ToString(false), " must take 1 parameter");
  }
  if (!IsScalarOfType(condition.result, PRED)) {
    return Invalid("the while condition ", condition.ToString(false), " must return pred[]");
  }
  if (!Compatible(condition.parameters[0], init)) {
    return Invalid("the while condition ", condition.ToString(false),
                   " must take the loop state ", Text(init));
  }
  if (!Compatible(body.parameters[0], init) || !Compatible(body.result, init)) {
    return Invalid("the while body ", body.ToString(false), " must take and return the loop "
                   "state ",
                   Text(init));
  }
  return init;
}

absl::StatusOr<Shape> ShapeInference::InferConditionalShape(const Shape& branch_index,
                                                            absl::Span<const ProgramShape> branches,
                                                            Shapes branch_operands) {
  const bool is_pred = IsScalarOfType(branch_index, PRED);
  if (!is_pred && !IsScalarOfType(branch_index, S32)) {
    return Invalid("the branch index of conditional must be pred[] or s32[], but is ",
                   Text(branch_index));
  }
  if (branches.empty()) return Invalid("conditional needs at least one branch");
  if (is_pred && branches.size() != 2) {
    return Invalid("a conditional with a pred[] index needs 2 branches, but has ",
                   branches.size());
  }
  if (branch_operands.size() != branches.size()) {
    return Invalid("conditional has ", branches.size(), " branches but ", branch_operands.size(),
                   " branch operands");
  }
  for (size_t i = 0; i < branches.size(); ++i) {
    const ProgramShape& branch = branches[i];
    if (branch.parameters.size() != 1) {
      return Invalid("branch ", i, " ", branch.ToString(false), " must take 1 parameter");
    }
    if (!Compatible(branch.parameters[0], *branch_operands[i])) {
      return Invalid("branch ", i, " ", branch.ToString(false), " must take its operand ",
                     Text(*branch_operands[i]));
    }
    if (!Compatible(branch.result, branches[0].result)) {
      return Invalid("branch ", i, " returns ", Text(branch.result), " but branch 0 returns ",
                     Text(branches[0].result));
    }
  }
  return branches[0].result;
}

absl::StatusOr<Shape> ShapeInference::InferCallShape(Shapes arguments,
                                                     const ProgramShape& to_apply) {
  if (arguments.size() != to_apply.parameters.size()) {
    return Invalid("the computation ", to_apply.ToString(false), " takes ",
                   to_apply.parameters.size(), " parameters but is given ", arguments.size(),
                   " operands");
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!Compatible(to_apply.parameters[i], *arguments[i])) {
      return Invalid("operand ", i, " is ", Text(*arguments[i]), " but parameter ", i, " of ",
                     to_apply.ToString(false), " is ", Text(to_apply.parameters[i]));
    }
  }
  return to_apply.result;
}

// --- Collectives ------------------------------------------------------------------

namespace {

// One shape per operand, a tuple of them when there are several.
Shape SingleOrTuple(std::vector<Shape> shapes) {
  if (shapes.size() == 1) return std::move(shapes[0]);
  return Shape::MakeTuple(std::move(shapes));
}

absl::Status ExpectArrays(Shapes operands, absl::string_view op) {
  if (operands.empty()) return Invalid(op, " needs at least one operand");
  for (const Shape* s : operands) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*s, absl::StrCat("every operand of ", op)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> ShapeInference::InferAllReduceShape(Shapes operands) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "all-reduce"));
  std::vector<Shape> shapes;
  for (const Shape* s : operands) shapes.push_back(WithoutLayout(*s));
  return SingleOrTuple(std::move(shapes));
}

absl::StatusOr<Shape> ShapeInference::InferAllGatherShape(Shapes operands,
                                                          int64_t all_gather_dimension,
                                                          int64_t shard_count) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "all-gather"));
  if (shard_count <= 0) return Invalid("all-gather needs a positive shard count, not ", shard_count);
  std::vector<Shape> shapes;
  for (const Shape* s : operands) {
    if (all_gather_dimension < 0 || all_gather_dimension >= s->rank()) {
      return Invalid("all-gather dimensions={", all_gather_dimension, "} is out of range for ",
                     Text(*s));
    }
    Shape out = WithoutLayout(*s);
    int64_t size = 0;
    if (!CheckedMul(s->dimensions(all_gather_dimension), shard_count, &size)) {
      return Invalid("all-gather of ", Text(*s), " overflows");
    }
    out.set_dimensions(all_gather_dimension, size);
    shapes.push_back(std::move(out));
  }
  return SingleOrTuple(std::move(shapes));
}

absl::StatusOr<Shape> ShapeInference::InferAllGatherStartShape(Shapes operands,
                                                               int64_t all_gather_dimension,
                                                               int64_t shard_count) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape gathered,
                            InferAllGatherShape(operands, all_gather_dimension, shard_count));
  std::vector<Shape> inputs;
  for (const Shape* s : operands) inputs.push_back(WithoutLayout(*s));
  return Shape::MakeTuple({SingleOrTuple(std::move(inputs)), std::move(gathered)});
}

absl::StatusOr<Shape> ShapeInference::InferAllGatherDoneShape(const Shape& start) {
  if (!start.IsTuple() || start.tuple_shapes_size() != 2) {
    return Invalid("all-gather-done needs an all-gather-start operand (a pair), but got ",
                   Text(start));
  }
  return WithoutLayout(start.tuple_shapes(1));
}

absl::StatusOr<Shape> ShapeInference::InferReduceScatterShape(Shapes operands,
                                                              int64_t scatter_dimension,
                                                              int64_t shard_count) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "reduce-scatter"));
  if (shard_count <= 0) {
    return Invalid("reduce-scatter needs a positive shard count, not ", shard_count);
  }
  std::vector<Shape> shapes;
  for (const Shape* s : operands) {
    if (scatter_dimension < 0 || scatter_dimension >= s->rank()) {
      return Invalid("reduce-scatter dimensions={", scatter_dimension, "} is out of range for ",
                     Text(*s));
    }
    const int64_t size = s->dimensions(scatter_dimension);
    if (size % shard_count != 0) {
      return Invalid("reduce-scatter dimension ", scatter_dimension, " of ", Text(*s),
                     " is not divisible by the ", shard_count, " shards");
    }
    Shape out = WithoutLayout(*s);
    out.set_dimensions(scatter_dimension, size / shard_count);
    shapes.push_back(std::move(out));
  }
  return SingleOrTuple(std::move(shapes));
}

absl::StatusOr<Shape> ShapeInference::InferAllToAllShape(const Shape& operand,
                                                         int64_t split_dimension,
                                                         int64_t concat_dimension,
                                                         int64_t split_count) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of all-to-all"));
  if (split_count <= 0) return Invalid("all-to-all needs a positive split count, not ", split_count);
  if (split_dimension < 0 || split_dimension >= operand.rank()) {
    return Invalid("all-to-all split dimension ", split_dimension, " is out of range for ",
                   Text(operand));
  }
  if (concat_dimension < 0 || concat_dimension >= operand.rank()) {
    return Invalid("all-to-all concat dimension ", concat_dimension, " is out of range for ",
                   Text(operand));
  }
  if (operand.dimensions(split_dimension) % split_count != 0) {
    return Invalid("all-to-all split dimension ", split_dimension, " of ", Text(operand),
                   " is not divisible by the ", split_count, " participants");
  }
  Shape result = WithoutLayout(operand);
  result.set_dimensions(split_dimension, operand.dimensions(split_dimension) / split_count);
  int64_t concat = 0;
  if (!CheckedMul(result.dimensions(concat_dimension), split_count, &concat)) {
    return Invalid("all-to-all of ", Text(operand), " overflows");
  }
  result.set_dimensions(concat_dimension, concat);
  return result;
}

absl::StatusOr<Shape> ShapeInference::InferAllToAllTupleShape(Shapes operands) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "all-to-all"));
  for (const Shape* s : operands) {
    if (!Compatible(*s, *operands[0])) {
      return Invalid("all-to-all needs operands of one shape, but got ", ShapesText(operands));
    }
  }
  return InferTupleShape(operands);
}

absl::StatusOr<Shape> ShapeInference::InferRaggedAllToAllShape(Shapes operands) {
  if (operands.size() != 6) {
    return Invalid("ragged-all-to-all needs 6 operands (input, output, input offsets, send sizes, "
                   "output offsets, receive sizes), but has ",
                   operands.size());
  }
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "ragged-all-to-all"));
  for (size_t i = 2; i < 6; ++i) {
    if (!IsIntegralType(operands[i]->element_type()) || operands[i]->rank() < 1) {
      return Invalid("ragged-all-to-all offsets and sizes must be integer arrays, but operand ", i,
                     " is ", Text(*operands[i]));
    }
  }
  if (!SameElementTypeIgnoringFpPrecision(operands[0]->element_type(),
                                          operands[1]->element_type())) {
    return Invalid("ragged-all-to-all needs input and output of one element type, but got ",
                   Text(*operands[0]), " and ", Text(*operands[1]));
  }
  return WithoutLayout(*operands[1]);
}

absl::StatusOr<Shape> ShapeInference::InferCollectivePermuteShape(Shapes operands,
                                                                  bool in_place) {
  if (in_place) {
    if (operands.size() != 4) {
      return Invalid("an in-place collective-permute needs 4 operands (input, output, input "
                     "offsets, output offsets), but has ",
                     operands.size());
    }
    return WithoutLayout(*operands[1]);
  }
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "collective-permute"));
  std::vector<Shape> shapes;
  for (const Shape* s : operands) shapes.push_back(WithoutLayout(*s));
  return SingleOrTuple(std::move(shapes));
}

absl::StatusOr<Shape> ShapeInference::InferCollectivePermuteStartShape(Shapes operands,
                                                                       Shapes context,
                                                                       bool in_place) {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape output, InferCollectivePermuteShape(operands, in_place));
  Shape input = in_place ? WithoutLayout(*operands[0]) : output;
  std::vector<Shape> elements = {std::move(input), std::move(output)};
  for (const Shape* c : context) {
    if (!IsScalarOfType(*c, U32) && !IsScalarOfType(*c, S32)) {
      return Invalid("the context of collective-permute-start must be u32[] or s32[] scalars, "
                     "not ",
                     Text(*c));
    }
    elements.push_back(WithoutLayout(*c));
  }
  return Shape::MakeTuple(std::move(elements));
}

absl::StatusOr<Shape> ShapeInference::InferCollectivePermuteDoneShape(const Shape& start) {
  if (!start.IsTuple() || start.tuple_shapes_size() < 2) {
    return Invalid("collective-permute-done needs a collective-permute-start operand, but got ",
                   Text(start));
  }
  return WithoutLayout(start.tuple_shapes(1));
}

absl::StatusOr<Shape> ShapeInference::InferCollectiveBroadcastShape(Shapes operands) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArrays(operands, "collective-broadcast"));
  std::vector<Shape> shapes;
  for (const Shape* s : operands) shapes.push_back(WithoutLayout(*s));
  return SingleOrTuple(std::move(shapes));
}

// --- Asynchronous pairs ------------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferAsyncStartShape(Shapes operands,
                                                           const ProgramShape& wrapped,
                                                           Shapes context) {
  SYSTOLIC_RETURN_IF_ERROR(InferCallShape(operands, wrapped).status());
  std::vector<Shape> elements = {InferTupleShape(operands), WithoutLayout(wrapped.result)};
  for (const Shape* c : context) elements.push_back(WithoutLayout(*c));
  return Shape::MakeTuple(std::move(elements));
}

absl::StatusOr<Shape> ShapeInference::InferAsyncUpdateShape(const Shape& start) {
  if (!start.IsTuple() || start.tuple_shapes_size() < 2) {
    return Invalid("async-update needs an async-start operand, but got ", Text(start));
  }
  return WithoutLayout(start);
}

absl::StatusOr<Shape> ShapeInference::InferAsyncDoneShape(const Shape& start) {
  if (!start.IsTuple() || start.tuple_shapes_size() < 2) {
    return Invalid("async-done needs an async-start operand, but got ", Text(start));
  }
  return WithoutLayout(start.tuple_shapes(1));
}

absl::StatusOr<Shape> ShapeInference::InferCopyStartShape(const Shape& operand) {
  return Shape::MakeTuple({operand, operand, Shape(U32, {})});
}

absl::StatusOr<Shape> ShapeInference::InferCopyDoneShape(const Shape& start) {
  if (!start.IsTuple() || start.tuple_shapes_size() != 3) {
    return Invalid("copy-done needs a copy-start operand (destination, source, context), but got ",
                   Text(start));
  }
  return start.tuple_shapes(0);
}

absl::StatusOr<Shape> ShapeInference::InferSendShape(const Shape& data, const Shape& token) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectToken(token, "the second operand of send"));
  return Shape::MakeTuple({data, Shape(U32, {}), Shape::MakeToken()});
}

absl::StatusOr<Shape> ShapeInference::InferSendDoneShape(const Shape& send) {
  if (!send.IsTuple() || send.tuple_shapes_size() != 3) {
    return Invalid("send-done needs a send operand (data, context, token), but got ", Text(send));
  }
  return Shape::MakeToken();
}

absl::StatusOr<Shape> ShapeInference::InferRecvShape(const Shape& token, const Shape& data) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectToken(token, "the operand of recv"));
  return Shape::MakeTuple({data, Shape(U32, {}), Shape::MakeToken()});
}

absl::StatusOr<Shape> ShapeInference::InferRecvDoneShape(const Shape& recv) {
  if (!recv.IsTuple() || recv.tuple_shapes_size() != 3) {
    return Invalid("recv-done needs a recv operand (data, context, token), but got ", Text(recv));
  }
  return Shape::MakeTuple({recv.tuple_shapes(0), Shape::MakeToken()});
}

absl::StatusOr<Shape> ShapeInference::InferInfeedShape(const Shape& token, const Shape& data) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectToken(token, "the operand of infeed"));
  return Shape::MakeTuple({data, Shape::MakeToken()});
}

absl::StatusOr<Shape> ShapeInference::InferOutfeedShape(const Shape& data, const Shape& token,
                                                        const Shape* outfeed_shape) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectToken(token, "the second operand of outfeed"));
  if (outfeed_shape != nullptr && !Compatible(*outfeed_shape, data)) {
    return Invalid("outfeed_shape=", Text(*outfeed_shape), " differs from the data ", Text(data));
  }
  return Shape::MakeToken();
}

absl::StatusOr<Shape> ShapeInference::InferAfterAllShape(Shapes operands) {
  for (size_t i = 0; i < operands.size(); ++i) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectToken(*operands[i], absl::StrCat("operand ", i, " of after-all")));
  }
  return Shape::MakeToken();
}

absl::StatusOr<Shape> ShapeInference::InferAddDependencyShape(const Shape& data,
                                                              const Shape& token) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectToken(token, "the second operand of add-dependency"));
  return WithoutLayout(data);
}

// --- Random numbers -----------------------------------------------------------------

absl::StatusOr<Shape> ShapeInference::InferRngShape(const Shape& a, const Shape& b,
                                                    RandomDistribution distribution,
                                                    const Shape& result) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(result, "the result of rng"));
  const PrimitiveType type = result.element_type();
  for (const Shape* s : {&a, &b}) {
    if (!IsScalarOfType(*s, type)) {
      return Invalid("the parameters of rng must be scalars of the result's element type ",
                     Text(type), ", but got ", Text(a), " and ", Text(b));
    }
  }
  if (distribution == RandomDistribution::kNormal && !IsFloatingPointType(type)) {
    return Invalid("rng_normal needs a floating-point result, not ", Text(result));
  }
  if (distribution == RandomDistribution::kUniform && !IsFloatingPointType(type) &&
      !IsIntegralType(type) && type != PRED) {
    return Invalid("rng_uniform cannot produce ", Text(result));
  }
  return WithoutLayout(result);
}

absl::StatusOr<Shape> ShapeInference::InferRngBitGeneratorShape(const Shape& state,
                                                                const Shape& data) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(state, "the state of rng-bit-generator"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(data, "the output of rng-bit-generator"));
  if (!IsUnsignedIntegralType(state.element_type()) || state.rank() != 1) {
    return Invalid("the state of rng-bit-generator must be a rank-1 unsigned integer array, not ",
                   Text(state));
  }
  if (!IsUnsignedIntegralType(data.element_type()) && !IsSignedIntegralType(data.element_type()) &&
      !IsFloatingPointType(data.element_type())) {
    return Invalid("rng-bit-generator cannot produce ", Text(data));
  }
  return Shape::MakeTuple({WithoutLayout(state), WithoutLayout(data)});
}

// --- Linear algebra and FFT ---------------------------------------------------------

namespace {

// The checks every batch-norm shares: a floating-point operand of rank >= 1,
// rank-1 per-feature vectors of its element type and feature count.
absl::Status CheckBatchNorm(absl::string_view op, const Shape& operand,
                            std::initializer_list<std::pair<absl::string_view, const Shape*>> vectors,
                            int64_t feature_index) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, absl::StrCat("the operand of ", op)));
  if (!IsFloatingPointType(operand.element_type())) {
    return Invalid(op, " needs a floating-point operand, but got ", Text(operand));
  }
  if (operand.rank() < 1) return Invalid(op, " needs an operand of rank 1 or more");
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return Invalid(op, " feature_index=", feature_index, " is out of range for ", Text(operand));
  }
  const int64_t features = operand.dimensions(feature_index);
  for (const auto& [name, shape] : vectors) {
    SYSTOLIC_RETURN_IF_ERROR(ExpectArray(*shape, absl::StrCat("the ", name, " of ", op)));
    if (shape->rank() != 1 || shape->dimensions(0) != features) {
      return Invalid("the ", name, " of ", op, " must be a vector of the ", features,
                     " features, but is ", Text(*shape));
    }
    if (!ShapeInference::SameElementTypeIgnoringFpPrecision(shape->element_type(),
                                                            operand.element_type())) {
      return Invalid("the ", name, " of ", op, " must have the operand's element type, but is ",
                     Text(*shape));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> ShapeInference::InferBatchNormTrainingShape(const Shape& operand,
                                                                  const Shape& scale,
                                                                  const Shape& offset,
                                                                  int64_t feature_index) {
  SYSTOLIC_RETURN_IF_ERROR(CheckBatchNorm("batch-norm-training", operand,
                                          {{"scale", &scale}, {"offset", &offset}},
                                          feature_index));
  const Shape features(operand.element_type(), {operand.dimensions(feature_index)});
  return Shape::MakeTuple({WithoutLayout(operand), features, features});
}

absl::StatusOr<Shape> ShapeInference::InferBatchNormInferenceShape(
    const Shape& operand, const Shape& scale, const Shape& offset, const Shape& mean,
    const Shape& variance, int64_t feature_index) {
  SYSTOLIC_RETURN_IF_ERROR(CheckBatchNorm(
      "batch-norm-inference", operand,
      {{"scale", &scale}, {"offset", &offset}, {"mean", &mean}, {"variance", &variance}},
      feature_index));
  return WithoutLayout(operand);
}

absl::StatusOr<Shape> ShapeInference::InferBatchNormGradShape(const Shape& operand,
                                                              const Shape& scale,
                                                              const Shape& mean,
                                                              const Shape& variance,
                                                              const Shape& grad_output,
                                                              int64_t feature_index) {
  SYSTOLIC_RETURN_IF_ERROR(CheckBatchNorm("batch-norm-grad", operand,
                                          {{"scale", &scale}, {"mean", &mean}, {"variance", &variance}},
                                          feature_index));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(grad_output, "the output gradient of batch-norm-grad"));
  if (!CompatibleIgnoringFpPrecision(grad_output, operand)) {
    return Invalid("the output gradient ", Text(grad_output),
                   " of batch-norm-grad must have the operand's shape ", Text(operand));
  }
  const Shape features(operand.element_type(), {operand.dimensions(feature_index)});
  return Shape::MakeTuple({WithoutLayout(operand), features, features});
}

absl::StatusOr<Shape> ShapeInference::InferCholeskyShape(const Shape& a) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(a, "the operand of cholesky"));
  if (!IsFloatingPointType(a.element_type()) && !IsComplexType(a.element_type())) {
    return Invalid("cholesky needs floating-point or complex elements, but got ", Text(a));
  }
  if (a.rank() < 2 || a.dimensions(a.rank() - 1) != a.dimensions(a.rank() - 2)) {
    return Invalid("cholesky needs square matrices in the two minor dimensions, but got ",
                   Text(a));
  }
  return WithoutLayout(a);
}

absl::StatusOr<Shape> ShapeInference::InferTriangularSolveShape(const Shape& a, const Shape& b,
                                                                bool left_side) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(a, "the matrix a of triangular-solve"));
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(b, "the right-hand side b of triangular-solve"));
  if ((!IsFloatingPointType(a.element_type()) && !IsComplexType(a.element_type())) ||
      a.element_type() != b.element_type()) {
    return Invalid("triangular-solve needs a and b of one floating-point or complex type, but got ",
                   Text(a), " and ", Text(b));
  }
  if (a.rank() < 2 || a.dimensions(a.rank() - 1) != a.dimensions(a.rank() - 2)) {
    return Invalid("triangular-solve needs square matrices a, but got ", Text(a));
  }
  if (b.rank() != a.rank()) {
    return Invalid("triangular-solve needs a and b of one rank, but got ", Text(a), " and ",
                   Text(b));
  }
  const int64_t shared = b.dimensions(b.rank() - (left_side ? 2 : 1));
  if (a.dimensions(a.rank() - 1) != shared) {
    return Invalid("triangular-solve with left_side=", left_side ? "true" : "false", ": a ",
                   Text(a), " does not fit b ", Text(b));
  }
  for (int64_t i = 0; i + 2 < a.rank(); ++i) {
    if (a.dimensions(i) != b.dimensions(i)) {
      return Invalid("triangular-solve needs a and b with the same batch dimensions, but got ",
                     Text(a), " and ", Text(b));
    }
  }
  return WithoutLayout(b);
}

absl::StatusOr<Shape> ShapeInference::InferFftShape(const Shape& operand, FftType type,
                                                    absl::Span<const int64_t> fft_length) {
  SYSTOLIC_RETURN_IF_ERROR(ExpectArray(operand, "the operand of fft"));
  const int64_t fft_rank = int64_t(fft_length.size());
  if (fft_rank < 1 || fft_rank > 3) {
    return Invalid("fft_length=", Braced(fft_length), " must have 1 to 3 dimensions");
  }
  if (operand.rank() < fft_rank) {
    return Invalid("an fft of ", fft_rank, " dimensions needs an operand of at least that rank, "
                   "but got ",
                   Text(operand));
  }
  for (int64_t len : fft_length) {
    if (len < 0) return Invalid("fft_length=", Braced(fft_length), " must not be negative");
  }
  const std::string fft = std::string(FftTypeToString(type));
  const int64_t first = operand.rank() - fft_rank;
  const int64_t last = operand.rank() - 1;
  switch (type) {
    case FftType::kFft:
    case FftType::kIfft:
      if (!IsComplexType(operand.element_type())) {
        return Invalid(fft, " needs a complex operand, but got ", Text(operand));
      }
      return WithoutLayout(operand);
    case FftType::kRfft: {
      if (operand.element_type() != F32 && operand.element_type() != F64) {
        return Invalid("RFFT needs an f32 or f64 operand, but got ", Text(operand));
      }
      for (int64_t i = 0; i < fft_rank; ++i) {
        if (operand.dimensions(first + i) != fft_length[i]) {
          return Invalid("RFFT of ", Text(operand), ": the minor dimensions must equal fft_length=",
                         Braced(fft_length));
        }
      }
      Shape result = WithElementType(operand, operand.element_type() == F32 ? C64 : C128);
      // Only half the spectrum (plus one) of the last dimension is kept.
      if (fft_length[fft_rank - 1] != 0) result.set_dimensions(last, fft_length[fft_rank - 1] / 2 + 1);
      return result;
    }
    case FftType::kIrfft: {
      if (!IsComplexType(operand.element_type())) {
        return Invalid("IRFFT needs a complex operand, but got ", Text(operand));
      }
      for (int64_t i = 0; i + 1 < fft_rank; ++i) {
        if (operand.dimensions(first + i) != fft_length[i]) {
          return Invalid("IRFFT of ", Text(operand),
                         ": the minor dimensions but the last must equal fft_length=",
                         Braced(fft_length));
        }
      }
      const int64_t expected_last = fft_length[fft_rank - 1] / 2 + 1;
      if ((operand.dimensions(last) != 0 || fft_length[fft_rank - 1] != 0) &&
          operand.dimensions(last) != expected_last) {
        return Invalid("IRFFT of ", Text(operand), " with fft_length=", Braced(fft_length),
                       " needs a minor dimension of ", expected_last);
      }
      Shape result =
          WithElementType(operand, primitive_util::ComplexComponentType(operand.element_type()));
      result.set_dimensions(last, fft_length[fft_rank - 1]);
      return result;
    }
  }
  return Invalid("unknown fft_type");
}

}  // namespace systolic
