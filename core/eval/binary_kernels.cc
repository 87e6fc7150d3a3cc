// Kernels of the binary elementwise opcodes, select and clamp.
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/eval/element_ops.h"
#include "core/eval/elementwise_kernel.h"

namespace systolic::eval {
namespace {

using Op = HloOpcode;

template <Op kOp, typename T>
constexpr bool BinarySupported() {
  constexpr bool kFloat = kIsFloat<T>;
  constexpr bool kComplex = kIsComplex<T>;
  constexpr bool kInt = kIsIntegral<T>;
  constexpr bool kPred = kIsPred<T>;
  switch (kOp) {
    case Op::kAdd:
    case Op::kSubtract:
    case Op::kMultiply:
    case Op::kDivide:
    case Op::kPower:
      return true;
    case Op::kRemainder:
    case Op::kMaximum:
    case Op::kMinimum:
      return kFloat || kInt || kPred;
    case Op::kAtan2:
      return kFloat || kComplex;
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
      return kInt || kPred;
    case Op::kShiftLeft:
    case Op::kShiftRightArithmetic:
    case Op::kShiftRightLogical:
      return kInt;
    case Op::kComplex:
      return std::is_same_v<T, float> || std::is_same_v<T, double>;
    default:
      return false;
  }
}

template <Op kOp, typename F>
inline F RealBinary(F a, F b) {
  if constexpr (kOp == Op::kAdd) return a + b;
  if constexpr (kOp == Op::kSubtract) return a - b;
  if constexpr (kOp == Op::kMultiply) return a * b;
  if constexpr (kOp == Op::kDivide) return a / b;
  if constexpr (kOp == Op::kPower) return std::pow(a, b);
  if constexpr (kOp == Op::kRemainder) return std::fmod(a, b);
  if constexpr (kOp == Op::kMaximum) return FloatMaximum(a, b);
  if constexpr (kOp == Op::kMinimum) return FloatMinimum(a, b);
  if constexpr (kOp == Op::kAtan2) return std::atan2(a, b);
  return a;
}

template <Op kOp, typename C>
inline C ComplexBinary(C a, C b) {
  if constexpr (kOp == Op::kAdd) return a + b;
  if constexpr (kOp == Op::kSubtract) return a - b;
  if constexpr (kOp == Op::kMultiply) return a * b;
  if constexpr (kOp == Op::kDivide) return a / b;
  if constexpr (kOp == Op::kPower) return ComplexPower(a, b);
  if constexpr (kOp == Op::kAtan2) {
    // atan2(y, x) = -i * log((x + iy) / sqrt(x^2 + y^2)), as XLA defines it.
    const C i(0, 1);
    return -i * std::log((b + i * a) / std::sqrt(b * b + a * a));
  }
  return a;
}

template <Op kOp, typename T>
inline T IntBinary(T a, T b) {
  if constexpr (kOp == Op::kAdd) return IntAdd(a, b);
  if constexpr (kOp == Op::kSubtract) return IntSubtract(a, b);
  if constexpr (kOp == Op::kMultiply) return IntMultiply(a, b);
  if constexpr (kOp == Op::kDivide) return IntDivide(a, b);
  if constexpr (kOp == Op::kRemainder) return IntRemainder(a, b);
  if constexpr (kOp == Op::kPower) return IntPower(a, b);
  if constexpr (kOp == Op::kMaximum) return IntMaximum(a, b);
  if constexpr (kOp == Op::kMinimum) return IntMinimum(a, b);
  if constexpr (kOp == Op::kAnd) return FromBits64<T>(ToBits64(a) & ToBits64(b));
  if constexpr (kOp == Op::kOr) return FromBits64<T>(ToBits64(a) | ToBits64(b));
  if constexpr (kOp == Op::kXor) return FromBits64<T>(ToBits64(a) ^ ToBits64(b));
  if constexpr (kOp == Op::kShiftLeft) return ShiftLeft(a, b);
  if constexpr (kOp == Op::kShiftRightLogical) return ShiftRightLogical(a, b);
  if constexpr (kOp == Op::kShiftRightArithmetic) return ShiftRightArithmetic(a, b);
  return a;
}

template <Op kOp, typename T>
inline auto BinaryApply(T a, T b) {
  if constexpr (kOp == Op::kComplex) {
    return std::complex<T>(a, b);
  } else if constexpr (kIsComplex<T>) {
    return ComplexBinary<kOp>(a, b);
  } else if constexpr (kIsFloat<T>) {
    return FromCompute<T>(RealBinary<kOp>(ToCompute(a), ToCompute(b)));
  } else {
    return IntBinary<kOp>(a, b);
  }
}

template <Op kOp, typename T, typename Out>
void BinaryLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const T* a = static_cast<const T*>(in[0]);
  const T* b = static_cast<const T*>(in[1]);
  Out* o = static_cast<Out*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = BinaryApply<kOp>(a[i], b[i]);
}

template <Op kOp>
absl::StatusOr<ElementwiseKernel> MakeFor(PrimitiveType type) {
  return ArrayTypeSwitch(type, [&](auto tag) -> absl::StatusOr<ElementwiseKernel> {
    using T = typename decltype(tag)::Native;
    if constexpr (BinarySupported<kOp, T>()) {
      using Out = decltype(BinaryApply<kOp>(T(), T()));
      return ElementwiseKernel(&BinaryLoop<kOp, T, Out>, 2, NativeToPrimitiveType<Out>());
    } else {
      return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(kOp), " does not apply to ",
                                                     primitive_util::LowercasePrimitiveTypeName(type)));
    }
  });
}

// Unsigned integers that may alias a value of any type of their width.
template <size_t kBytes>
struct AliasedUnsigned;
template <>
struct AliasedUnsigned<1> {
  typedef uint8_t __attribute__((may_alias)) Type;
};
template <>
struct AliasedUnsigned<2> {
  typedef uint16_t __attribute__((may_alias)) Type;
};
template <>
struct AliasedUnsigned<4> {
  typedef uint32_t __attribute__((may_alias)) Type;
};
template <>
struct AliasedUnsigned<8> {
  typedef uint64_t __attribute__((may_alias)) Type;
};

template <typename T>
void SelectLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  // A bit mask instead of `p ? a : b`: the compiler keeps a branch per element
  // for the ternary, and random predicates mispredict half of them. The
  // values are read as unsigned integers of their width (may_alias, so no
  // copies), which lets the loop vectorise.
  using Bits = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t,
                         std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  if constexpr (sizeof(T) <= 8 && sizeof(T) == sizeof(Bits) && std::is_trivially_copyable_v<T>) {
    using AliasedBits = typename AliasedUnsigned<sizeof(T)>::Type;
    const uint8_t* p = static_cast<const uint8_t*>(in[0]);  // pred: one byte, 0 or 1
    const AliasedBits* a = static_cast<const AliasedBits*>(in[1]);
    const AliasedBits* b = static_cast<const AliasedBits*>(in[2]);
    AliasedBits* o = static_cast<AliasedBits*>(out);
    for (int64_t i = 0; i < n; ++i) {
      const Bits mask = Bits(Bits(0) - Bits(p[i] != 0));
      o[i] = Bits((a[i] & mask) | (b[i] & Bits(~mask)));
    }
  } else {
    const bool* p = static_cast<const bool*>(in[0]);
    const T* a = static_cast<const T*>(in[1]);
    const T* b = static_cast<const T*>(in[2]);
    T* o = static_cast<T*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = p[i] ? a[i] : b[i];
  }
}

// clamp(lo, x, hi) = min(max(x, lo), hi) with the type's maximum / minimum.
template <typename T>
void ClampLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const T* lo = static_cast<const T*>(in[0]);
  const T* x = static_cast<const T*>(in[1]);
  const T* hi = static_cast<const T*>(in[2]);
  T* o = static_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) {
    o[i] = BinaryApply<Op::kMinimum>(BinaryApply<Op::kMaximum>(x[i], lo[i]), hi[i]);
  }
}

}  // namespace

absl::StatusOr<ElementwiseKernel> MakeBinaryKernel(HloOpcode opcode, PrimitiveType type) {
  if (!primitive_util::IsArrayType(type)) {
    return absl::InvalidArgumentError(absl::StrCat(HloOpcodeString(opcode), " needs array operands"));
  }
  switch (opcode) {
#define SYSTOLIC_BINARY(OP) \
  case Op::OP:              \
    return MakeFor<Op::OP>(type);
    SYSTOLIC_BINARY(kAdd)
    SYSTOLIC_BINARY(kSubtract)
    SYSTOLIC_BINARY(kMultiply)
    SYSTOLIC_BINARY(kDivide)
    SYSTOLIC_BINARY(kPower)
    SYSTOLIC_BINARY(kRemainder)
    SYSTOLIC_BINARY(kMaximum)
    SYSTOLIC_BINARY(kMinimum)
    SYSTOLIC_BINARY(kAtan2)
    SYSTOLIC_BINARY(kAnd)
    SYSTOLIC_BINARY(kOr)
    SYSTOLIC_BINARY(kXor)
    SYSTOLIC_BINARY(kShiftLeft)
    SYSTOLIC_BINARY(kShiftRightArithmetic)
    SYSTOLIC_BINARY(kShiftRightLogical)
    SYSTOLIC_BINARY(kComplex)
#undef SYSTOLIC_BINARY
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(HloOpcodeString(opcode), " is not a binary elementwise opcode"));
  }
}

absl::StatusOr<ElementwiseKernel> MakeSelectKernel(PrimitiveType type) {
  if (!primitive_util::IsArrayType(type)) {
    return absl::InvalidArgumentError("select needs array operands");
  }
  return ArrayTypeSwitch(type, [&](auto tag) {
    using T = typename decltype(tag)::Native;
    return ElementwiseKernel(&SelectLoop<T>, 3, type);
  });
}

absl::StatusOr<ElementwiseKernel> MakeClampKernel(PrimitiveType type) {
  if (!primitive_util::IsArrayType(type)) {
    return absl::InvalidArgumentError("clamp needs array operands");
  }
  return ArrayTypeSwitch(type, [&](auto tag) -> absl::StatusOr<ElementwiseKernel> {
    using T = typename decltype(tag)::Native;
    if constexpr (BinarySupported<Op::kMaximum, T>()) {
      return ElementwiseKernel(&ClampLoop<T>, 3, type);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "clamp does not apply to ", primitive_util::LowercasePrimitiveTypeName(type)));
    }
  });
}

}  // namespace systolic::eval
