// Scalar semantics of HLO's elementwise opcodes with XLA's rules for the
// corner cases: integer division by zero, INT_MIN / -1, shifts past the bit
// width, NaN in maximum / minimum, total-order comparison, integer power.
// The kernels instantiate these once per element type and run them in tight
// loops; nothing here dispatches at run time.
//
// Integers (sub-byte ones included) and pred are computed on 64 bits and
// wrapped back to their width, which gives two's complement wrap-around
// without signed-overflow undefined behaviour. Narrow floats are computed in
// f32 (f64 stays f64) and rounded once, to nearest even.
#pragma once

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/hlo/element_convert.h"

namespace systolic::eval {

template <typename T>
inline constexpr bool kIsPred = std::is_same_v<T, bool>;
// Integers and pred: bit-level arithmetic on 64 bits.
template <typename T>
inline constexpr bool kIsIntLike = kIsIntegral<T> || kIsPred<T>;
template <typename T>
inline constexpr bool kIsSigned = kIsSignedIntegral<T>;

using systolic::kIsMiniFloat;

// --- Integers ---------------------------------------------------------------

template <typename T>
constexpr int IntegerBits() {
  if constexpr (kIsPred<T>) {
    return 1;
  } else {
    return std::numeric_limits<T>::digits + (std::numeric_limits<T>::is_signed ? 1 : 0);
  }
}

template <typename T>
constexpr uint64_t IntegerMask() {
  return IntegerBits<T>() == 64 ? ~uint64_t{0} : (uint64_t{1} << IntegerBits<T>()) - 1;
}

// Two's complement bits of an integer, sign-extended to 64 bits.
template <typename T>
inline uint64_t ToBits64(T v) {
  if constexpr (kIsPred<T>) {
    return v ? 1 : 0;
  } else {
    return static_cast<uint64_t>(static_cast<WideType<T>>(v));
  }
}

// The value of T whose low bits are `u` (wraps to the width; pred is `!= 0`,
// as C++'s bool conversion, which is what XLA's evaluator computes).
template <typename T>
inline T FromBits64(uint64_t u) {
  if constexpr (kIsPred<T>) {
    return u != 0;
  } else if constexpr (kIsSigned<T>) {
    return T(static_cast<int64_t>(u));
  } else {
    return T(u);
  }
}

// The signed value of the bits of T (unsigned types reinterpreted, as XLA's
// arithmetic shift does).
template <typename T>
inline int64_t SignExtend(T v) {
  constexpr int kBits = IntegerBits<T>();
  uint64_t u = ToBits64(v) & IntegerMask<T>();
  if constexpr (kBits == 64) {
    return static_cast<int64_t>(u);
  } else {
    return static_cast<int64_t>(u << (64 - kBits)) >> (64 - kBits);
  }
}

template <typename T>
inline int64_t SignedMin() {
  return -(int64_t{1} << (IntegerBits<T>() - 1));
}

template <typename T>
inline T IntAdd(T a, T b) {
  return FromBits64<T>(ToBits64(a) + ToBits64(b));
}
template <typename T>
inline T IntSubtract(T a, T b) {
  return FromBits64<T>(ToBits64(a) - ToBits64(b));
}
template <typename T>
inline T IntMultiply(T a, T b) {
  return FromBits64<T>(ToBits64(a) * ToBits64(b));
}
template <typename T>
inline T IntNegate(T a) {
  return FromBits64<T>(uint64_t{0} - ToBits64(a));
}

// x / 0 is -1 (all bits set, the maximum for unsigned types); INT_MIN / -1
// is INT_MIN.
template <typename T>
inline T IntDivide(T a, T b) {
  if constexpr (kIsSigned<T>) {
    int64_t x = SignExtend(a), y = SignExtend(b);
    if (y == 0) return FromBits64<T>(~uint64_t{0});
    if (y == -1 && x == SignedMin<T>()) return a;
    return FromBits64<T>(static_cast<uint64_t>(x / y));
  } else {
    uint64_t x = ToBits64(a) & IntegerMask<T>(), y = ToBits64(b) & IntegerMask<T>();
    if (y == 0) return FromBits64<T>(~uint64_t{0});
    return FromBits64<T>(x / y);
  }
}

// x % 0 is x; INT_MIN % -1 is 0. The sign follows the dividend (C++'s %).
template <typename T>
inline T IntRemainder(T a, T b) {
  if constexpr (kIsSigned<T>) {
    int64_t x = SignExtend(a), y = SignExtend(b);
    if (y == 0) return a;
    if (y == -1) return FromBits64<T>(0);
    return FromBits64<T>(static_cast<uint64_t>(x % y));
  } else {
    uint64_t x = ToBits64(a) & IntegerMask<T>(), y = ToBits64(b) & IntegerMask<T>();
    if (y == 0) return a;
    return FromBits64<T>(x % y);
  }
}

template <typename T>
inline int64_t IntCompareKey(T v) {
  if constexpr (kIsSigned<T>) return SignExtend(v);
  return static_cast<int64_t>(ToBits64(v) & IntegerMask<T>());
}

// a < b in the integer's own order (a u64 above INT64_MAX stays large).
template <typename T>
inline bool IntLess(T a, T b) {
  if constexpr (kIsSigned<T>) return SignExtend(a) < SignExtend(b);
  return (ToBits64(a) & IntegerMask<T>()) < (ToBits64(b) & IntegerMask<T>());
}

template <typename T>
inline T IntMaximum(T a, T b) {
  return IntLess(a, b) ? b : a;
}
template <typename T>
inline T IntMinimum(T a, T b) {
  return IntLess(b, a) ? b : a;
}

// A shift amount outside [0, bits) (negative amounts included).
template <typename T>
inline bool ShiftOutOfRange(T amount) {
  if constexpr (kIsSigned<T>) {
    int64_t s = SignExtend(amount);
    return s < 0 || s >= IntegerBits<T>();
  } else {
    return (ToBits64(amount) & IntegerMask<T>()) >= uint64_t(IntegerBits<T>());
  }
}

template <typename T>
inline T ShiftLeft(T a, T amount) {
  if (ShiftOutOfRange(amount)) return FromBits64<T>(0);
  return FromBits64<T>(ToBits64(a) << (ToBits64(amount) & 63));
}
template <typename T>
inline T ShiftRightLogical(T a, T amount) {
  if (ShiftOutOfRange(amount)) return FromBits64<T>(0);
  return FromBits64<T>((ToBits64(a) & IntegerMask<T>()) >> (ToBits64(amount) & 63));
}
// Past the width the result is the sign fill: -1 for negative values, else 0.
template <typename T>
inline T ShiftRightArithmetic(T a, T amount) {
  int64_t s = SignExtend(a);
  if (ShiftOutOfRange(amount)) return FromBits64<T>(s < 0 ? ~uint64_t{0} : 0);
  return FromBits64<T>(static_cast<uint64_t>(s >> (ToBits64(amount) & 63)));
}

template <typename T>
inline T PopulationCount(T a) {
  return FromBits64<T>(std::popcount(ToBits64(a) & IntegerMask<T>()));
}
template <typename T>
inline T CountLeadingZeros(T a) {
  uint64_t u = ToBits64(a) & IntegerMask<T>();
  int lz = u == 0 ? IntegerBits<T>() : std::countl_zero(u) - (64 - IntegerBits<T>());
  return FromBits64<T>(uint64_t(lz));
}

template <typename T>
inline T IntAbs(T a) {
  if constexpr (kIsSigned<T>) return SignExtend(a) < 0 ? IntNegate(a) : a;
  return a;
}
template <typename T>
inline T IntSign(T a) {
  const T zero = FromBits64<T>(0);
  return FromBits64<T>(static_cast<uint64_t>(int64_t(IntLess(zero, a)) - int64_t(IntLess(a, zero))));
}

// XLA: x^0 = 1 and 1^x = 1; a negative exponent gives 1 for a base of 1 and
// 0 otherwise; else exponentiation by squaring with wrap-around.
template <typename T>
inline T IntPower(T base, T exponent) {
  if constexpr (kIsPred<T>) {
    return base || !exponent;
  } else {
    int64_t e = IntCompareKey(exponent);
    uint64_t b = ToBits64(base);
    if (e == 0 || IntCompareKey(base) == 1) return FromBits64<T>(1);
    if constexpr (kIsSigned<T>) {
      if (e < 0) return FromBits64<T>(0);
    }
    uint64_t result = 1;
    uint64_t ue = static_cast<uint64_t>(e);
    while (ue != 0) {
      if (ue & 1) result *= b;
      b *= b;
      ue >>= 1;
    }
    return FromBits64<T>(result);
  }
}

// --- Floats -------------------------------------------------------------------

// The type narrow floats are computed in: float (double for f64).
template <typename T>
using FloatCompute = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
inline FloatCompute<T> ToCompute(T v) {
  return static_cast<FloatCompute<T>>(v);
}
template <typename T, typename F>
inline T FromCompute(F v) {
  return static_cast<T>(v);
}

// XLA's maximum / minimum: a NaN operand is the result (lhs first); otherwise
// std::max / std::min, so max(-0, +0) is the first operand.
template <typename F>
inline F FloatMaximum(F a, F b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return std::max(a, b);
}
template <typename F>
inline F FloatMinimum(F a, F b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return std::min(a, b);
}

template <typename F>
inline F FloatSign(F v) {
  if (std::isnan(v)) return v;
  return std::copysign(v != F(0) ? F(1) : F(0), v);
}

// The bits of a real float and their width (sign included).
template <typename T>
struct FloatBitsOf {
  static constexpr int kWidth = sizeof(T) * 8;
  static constexpr bool kSigned = true;
  static uint64_t Get(T v) {
    if constexpr (std::is_same_v<T, float>) {
      return std::bit_cast<uint32_t>(v);
    } else if constexpr (std::is_same_v<T, double>) {
      return std::bit_cast<uint64_t>(v);
    } else {
      return Eigen::numext::bit_cast<uint16_t>(v);
    }
  }
};
template <int E, int M, int B, bool I, MiniFloatNan N, bool S>
struct FloatBitsOf<MiniFloat<E, M, B, I, N, S>> {
  static constexpr int kWidth = E + M + (S ? 1 : 0);
  static constexpr bool kSigned = S;
  static uint64_t Get(MiniFloat<E, M, B, I, N, S> v) { return v.bits(); }
};

// A key whose signed integer order is the float total order:
// -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
template <typename T>
inline int64_t TotalOrderKey(T v) {
  using Bits = FloatBitsOf<T>;
  uint64_t u = Bits::Get(v);
  if constexpr (!Bits::kSigned) {
    return static_cast<int64_t>(u);
  } else {
    constexpr int kWidth = Bits::kWidth;
    int64_t s = kWidth == 64 ? static_cast<int64_t>(u)
                             : static_cast<int64_t>(u << (64 - kWidth)) >> (64 - kWidth);
    if (s < 0) s ^= static_cast<int64_t>((kWidth == 64 ? ~uint64_t{0} : (uint64_t{1} << kWidth) - 1) >> 1);
    return s;
  }
}

// --- Complex ------------------------------------------------------------------

template <typename C>
inline C ComplexPower(C a, C b) {
  if (a == C(1) || b == C(0)) return C(1);
  if (a == C(0)) {
    // 0^b: 0 for a positive real part of b, inf otherwise (XLA's rule).
    using R = typename C::value_type;
    if (b.real() > R(0)) return C(0);
    if (b.real() < R(0)) return C(std::numeric_limits<R>::infinity(), 0);
  }
  return std::pow(a, b);
}

template <typename C>
inline C ComplexSign(C v) {
  auto m = std::abs(v);
  return m == 0 ? C(0) : v / m;
}

// e^z - 1 for z = x + iy without the cancellation of exp(z) - 1 near zero:
// the real part is expm1(x) cos(y) - 2 sin^2(y / 2) (cos(y) - 1 rewritten),
// the imaginary part e^x sin(y).
template <typename C>
inline C ComplexExpm1(C z) {
  using R = typename C::value_type;
  const R x = z.real(), y = z.imag();
  const R half_sin = std::sin(y / R(2));
  const R re = std::expm1(x) * std::cos(y) - R(2) * half_sin * half_sin;
  // e^x sin(y), with sin(0) keeping an infinite e^x from making NaN.
  const R im = y == R(0) ? y : std::exp(x) * std::sin(y);
  return C(re, im);
}

// log(1 + z) for z = x + iy: log|1 + z| = log1p(x (2 + x) + y^2) / 2 keeps its
// precision near zero; far from it (where those squares overflow) the plain
// form is exact enough.
template <typename C>
inline C ComplexLog1p(C z) {
  using R = typename C::value_type;
  const R x = z.real(), y = z.imag();
  const R arg = std::atan2(y, R(1) + x);
  const R large = std::sqrt(std::numeric_limits<R>::max()) / R(4);
  if (std::fabs(x) < large && std::fabs(y) < large) {
    return C(R(0.5) * std::log1p(x * (R(2) + x) + y * y), arg);
  }
  return C(std::log(std::abs(C(R(1) + x, y))), arg);
}

}  // namespace systolic::eval
