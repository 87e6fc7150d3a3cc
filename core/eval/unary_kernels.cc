// Kernels of the unary elementwise opcodes.
#include <cmath>
#include <complex>

#include "absl/strings/str_cat.h"
#include "core/eval/element_ops.h"
#include "core/eval/elementwise_kernel.h"

namespace systolic::eval {
namespace {

using Op = HloOpcode;

template <Op kOp, typename T>
constexpr bool UnarySupported() {
  constexpr bool kFloat = kIsFloat<T>;
  constexpr bool kComplex = kIsComplex<T>;
  constexpr bool kInt = kIsIntegral<T>;
  switch (kOp) {
    case Op::kAbs:
    case Op::kSign:
    case Op::kNegate:
      return kFloat || kComplex || kInt;
    case Op::kNot:
      return kInt || kIsPred<T>;
    case Op::kPopulationCount:
    case Op::kClz:
      return kInt;
    case Op::kCeil:
    case Op::kFloor:
    case Op::kRoundNearestAfz:
    case Op::kRoundNearestEven:
    case Op::kErf:
    case Op::kIsFinite:
      return kFloat;
    case Op::kReal:
    case Op::kImag:
      return kFloat || kComplex;
    case Op::kCbrt:
    case Op::kCos:
    case Op::kSin:
    case Op::kTan:
    case Op::kTanh:
    case Op::kExp:
    case Op::kExpm1:
    case Op::kLog:
    case Op::kLog1p:
    case Op::kLogistic:
    case Op::kSqrt:
    case Op::kRsqrt:
      return kFloat || kComplex;
    default:
      return false;
  }
}

// Real-valued math on the compute type F (float or double).
template <Op kOp, typename F>
inline F RealMath(F x) {
  if constexpr (kOp == Op::kAbs) return std::fabs(x);
  if constexpr (kOp == Op::kSign) return FloatSign(x);
  if constexpr (kOp == Op::kNegate) return -x;
  if constexpr (kOp == Op::kCeil) return std::ceil(x);
  if constexpr (kOp == Op::kFloor) return std::floor(x);
  if constexpr (kOp == Op::kRoundNearestAfz) return std::round(x);
  if constexpr (kOp == Op::kRoundNearestEven) return std::nearbyint(x);
  if constexpr (kOp == Op::kErf) return std::erf(x);
  if constexpr (kOp == Op::kCbrt) return std::cbrt(x);
  if constexpr (kOp == Op::kCos) return std::cos(x);
  if constexpr (kOp == Op::kSin) return std::sin(x);
  if constexpr (kOp == Op::kTan) return std::tan(x);
  if constexpr (kOp == Op::kTanh) return std::tanh(x);
  if constexpr (kOp == Op::kExp) return std::exp(x);
  if constexpr (kOp == Op::kExpm1) return std::expm1(x);
  if constexpr (kOp == Op::kLog) return std::log(x);
  if constexpr (kOp == Op::kLog1p) return std::log1p(x);
  if constexpr (kOp == Op::kLogistic) return F(1) / (F(1) + std::exp(-x));
  if constexpr (kOp == Op::kSqrt) return std::sqrt(x);
  if constexpr (kOp == Op::kRsqrt) return F(1) / std::sqrt(x);
  if constexpr (kOp == Op::kReal) return x;
  if constexpr (kOp == Op::kImag) return F(0);
  return x;
}

template <Op kOp, typename C>
inline auto ComplexMath(C z) {
  using R = typename C::value_type;
  if constexpr (kOp == Op::kAbs) return std::abs(z);
  if constexpr (kOp == Op::kReal) return z.real();
  if constexpr (kOp == Op::kImag) return z.imag();
  if constexpr (kOp == Op::kSign) return ComplexSign(z);
  if constexpr (kOp == Op::kNegate) return -z;
  if constexpr (kOp == Op::kCbrt) return std::pow(z, C(R(1) / R(3)));
  if constexpr (kOp == Op::kCos) return std::cos(z);
  if constexpr (kOp == Op::kSin) return std::sin(z);
  if constexpr (kOp == Op::kTan) return std::tan(z);
  if constexpr (kOp == Op::kTanh) return std::tanh(z);
  if constexpr (kOp == Op::kExp) return std::exp(z);
  if constexpr (kOp == Op::kExpm1) return ComplexExpm1(z);
  if constexpr (kOp == Op::kLog) return std::log(z);
  if constexpr (kOp == Op::kLog1p) return ComplexLog1p(z);
  if constexpr (kOp == Op::kLogistic) return C(1) / (C(1) + std::exp(-z));
  if constexpr (kOp == Op::kSqrt) return std::sqrt(z);
  if constexpr (kOp == Op::kRsqrt) return C(1) / std::sqrt(z);
}

template <Op kOp, typename T>
inline auto UnaryApply(T a) {
  if constexpr (kIsComplex<T>) {
    return ComplexMath<kOp>(a);
  } else if constexpr (kIsFloat<T>) {
    if constexpr (kOp == Op::kIsFinite) {
      return static_cast<bool>(std::isfinite(ToCompute(a)));
    } else {
      return FromCompute<T>(RealMath<kOp>(ToCompute(a)));
    }
  } else {
    // Integers and pred.
    if constexpr (kOp == Op::kAbs) return IntAbs(a);
    if constexpr (kOp == Op::kSign) return IntSign(a);
    if constexpr (kOp == Op::kNegate) return IntNegate(a);
    if constexpr (kOp == Op::kNot) return FromBits64<T>(kIsPred<T> ? !a : ~ToBits64(a));
    if constexpr (kOp == Op::kPopulationCount) return PopulationCount(a);
    if constexpr (kOp == Op::kClz) return CountLeadingZeros(a);
  }
}

template <Op kOp, typename T, typename Out>
void UnaryLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const T* a = static_cast<const T*>(in[0]);
  Out* o = static_cast<Out*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = UnaryApply<kOp>(a[i]);
}

template <Op kOp>
absl::StatusOr<ElementwiseKernel> MakeFor(PrimitiveType type) {
  return ArrayTypeSwitch(type, [&](auto tag) -> absl::StatusOr<ElementwiseKernel> {
    using T = typename decltype(tag)::Native;
    if constexpr (UnarySupported<kOp, T>()) {
      using Out = decltype(UnaryApply<kOp>(T()));
      return ElementwiseKernel(&UnaryLoop<kOp, T, Out>, 1, NativeToPrimitiveType<Out>());
    } else {
      return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(kOp), " does not apply to ",
                                                     primitive_util::LowercasePrimitiveTypeName(type)));
    }
  });
}

}  // namespace

absl::StatusOr<ElementwiseKernel> MakeUnaryKernel(HloOpcode opcode, PrimitiveType type) {
  if (!primitive_util::IsArrayType(type)) {
    return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(opcode), " needs an array operand"));
  }
  switch (opcode) {
#define SYSTOLIC_UNARY(OP) \
  case Op::OP:             \
    return MakeFor<Op::OP>(type);
    SYSTOLIC_UNARY(kAbs)
    SYSTOLIC_UNARY(kSign)
    SYSTOLIC_UNARY(kNegate)
    SYSTOLIC_UNARY(kNot)
    SYSTOLIC_UNARY(kPopulationCount)
    SYSTOLIC_UNARY(kClz)
    SYSTOLIC_UNARY(kCeil)
    SYSTOLIC_UNARY(kFloor)
    SYSTOLIC_UNARY(kRoundNearestAfz)
    SYSTOLIC_UNARY(kRoundNearestEven)
    SYSTOLIC_UNARY(kErf)
    SYSTOLIC_UNARY(kIsFinite)
    SYSTOLIC_UNARY(kReal)
    SYSTOLIC_UNARY(kImag)
    SYSTOLIC_UNARY(kCbrt)
    SYSTOLIC_UNARY(kCos)
    SYSTOLIC_UNARY(kSin)
    SYSTOLIC_UNARY(kTan)
    SYSTOLIC_UNARY(kTanh)
    SYSTOLIC_UNARY(kExp)
    SYSTOLIC_UNARY(kExpm1)
    SYSTOLIC_UNARY(kLog)
    SYSTOLIC_UNARY(kLog1p)
    SYSTOLIC_UNARY(kLogistic)
    SYSTOLIC_UNARY(kSqrt)
    SYSTOLIC_UNARY(kRsqrt)
#undef SYSTOLIC_UNARY
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(HloOpcodeString(opcode), " is not a unary elementwise opcode"));
  }
}

}  // namespace systolic::eval
