// Conversion of one element between any two array types, with XLA's rules:
// float -> integer truncates toward zero, saturates at the integer's range and
// maps NaN to 0; integer -> integer wraps; real -> pred is `!= 0`;
// real -> complex has a zero imaginary part; narrow floats round to nearest
// even (the f8 / f6 / f4 ones straight from f64). Complex -> real is rejected
// by shape inference, and here takes the real part.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "core/hlo/native_type.h"

namespace systolic {

template <typename T>
inline constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

template <typename T>
inline constexpr bool kIsSubByteInt =
    std::is_same_v<T, int2> || std::is_same_v<T, uint2> || std::is_same_v<T, int4> ||
    std::is_same_v<T, uint4>;

template <typename T>
inline constexpr bool kIsIntegral =
    (std::is_integral_v<T> && !std::is_same_v<T, bool>) || kIsSubByteInt<T>;

template <typename T>
inline constexpr bool kIsFloat = !kIsIntegral<T> && !kIsComplex<T> && !std::is_same_v<T, bool>;

template <typename T>
inline constexpr bool kIsSignedIntegral = kIsIntegral<T> && std::numeric_limits<T>::is_signed;

// The widest built-in type that holds every value of T exactly (used for math
// on narrow types): int64/uint64 for integers, float for sub-32-bit floats.
template <typename T>
using WideType = std::conditional_t<
    kIsComplex<T>, T,
    std::conditional_t<kIsIntegral<T>, std::conditional_t<kIsSignedIntegral<T>, int64_t, uint64_t>,
                       std::conditional_t<std::is_same_v<T, bool>, bool,
                                          std::conditional_t<std::is_same_v<T, double>, double,
                                                             float>>>>;

template <typename To, typename From>
To ConvertElement(From from) {
  if constexpr (std::is_same_v<To, From>) {
    return from;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (kIsComplex<From>) {
      return from.real() != 0;  // complex -> real keeps the real part
    } else {
      return static_cast<WideType<From>>(from) != 0;
    }
  } else if constexpr (kIsComplex<To>) {
    using Component = typename To::value_type;
    if constexpr (kIsComplex<From>) {
      return To(Component(from.real()), Component(from.imag()));
    } else {
      return To(Component(static_cast<WideType<From>>(from)), Component(0));
    }
  } else if constexpr (kIsComplex<From>) {
    return ConvertElement<To>(from.real());
  } else if constexpr (kIsIntegral<To>) {
    if constexpr (kIsFloat<From>) {
      double v = static_cast<double>(static_cast<WideType<From>>(from));
      if (std::isnan(v)) return To(0);
      using Wide = WideType<To>;
      constexpr double lo = double(std::numeric_limits<To>::lowest());
      constexpr double hi = double(std::numeric_limits<To>::max());
      if (v <= lo) return std::numeric_limits<To>::lowest();
      // `hi` may round up past the range when To is 64-bit.
      if (v >= hi) return std::numeric_limits<To>::max();
      return To(static_cast<Wide>(v));
    } else {
      // bool and integers: wrap modulo the target width.
      return To(static_cast<WideType<To>>(static_cast<WideType<From>>(from)));
    }
  } else {
    // To is a real float.
    using Wide = WideType<From>;
    if constexpr (std::is_same_v<To, double>) {
      return static_cast<double>(static_cast<Wide>(from));
    } else if constexpr (std::is_same_v<To, float>) {
      return static_cast<float>(static_cast<Wide>(from));
    } else if constexpr (kIsMiniFloat<To> && std::is_same_v<Wide, double>) {
      return To(static_cast<double>(from));  // one rounding, as ml_dtypes does
    } else if constexpr (std::is_same_v<Wide, double> || std::is_same_v<Wide, float>) {
      // bf16 and f16 from f64 go through f32, as Eigen's (and XLA's) do.
      return To(static_cast<float>(static_cast<Wide>(from)));
    } else {
      // Integers reach narrow floats through float, as XLA does.
      return To(static_cast<float>(static_cast<Wide>(from)));
    }
  }
}

}  // namespace systolic
