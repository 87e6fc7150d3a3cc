// Kernels that change the element type: convert (XLA's rounding, saturation
// and NaN rules, from element_convert.h), bitcast-convert between types of one
// width, reduce-precision and stochastic-convert; and the copy kernel.
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/eval/element_ops.h"
#include "core/eval/elementwise_kernel.h"

namespace systolic::eval {
namespace {

std::string TypeName(PrimitiveType t) {
  return std::string(primitive_util::LowercasePrimitiveTypeName(t));
}

template <typename From, typename To>
void ConvertLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const From* a = static_cast<const From*>(in[0]);
  To* o = static_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = ConvertElement<To>(a[i]);
}

// The raw bits of one element (types of at most 64 bits).
template <typename T>
inline uint64_t RawBits(T v) {
  if constexpr (kIsIntLike<T>) {
    return ToBits64(v) & IntegerMask<T>();
  } else if constexpr (kIsComplex<T>) {
    uint64_t u = 0;
    std::memcpy(&u, static_cast<const void*>(&v), sizeof(T) < 8 ? sizeof(T) : 8);
    return u;
  } else {
    return FloatBitsOf<T>::Get(v);
  }
}

template <typename T>
inline T FromRawBits(uint64_t u) {
  if constexpr (kIsIntLike<T>) {
    if constexpr (kIsSigned<T>) {
      constexpr int kBits = IntegerBits<T>();
      int64_t s = kBits == 64 ? int64_t(u) : int64_t(u << (64 - kBits)) >> (64 - kBits);
      return FromBits64<T>(uint64_t(s));
    }
    return FromBits64<T>(u);
  } else if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(uint32_t(u));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(u);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return Eigen::numext::bit_cast<T>(uint16_t(u));
  } else if constexpr (kIsMiniFloat<T>) {
    return T::FromBits(uint8_t(u));
  } else {
    T v{};
    std::memcpy(static_cast<void*>(&v), &u, sizeof(T) < 8 ? sizeof(T) : 8);
    return v;
  }
}

template <typename From, typename To>
void BitcastLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const From* a = static_cast<const From*>(in[0]);
  To* o = static_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = FromRawBits<To>(RawBits(a[i]));
}

void ByteCopyLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams& p) {
  // The element width travels in mantissa_bits (bytes) for this kernel.
  std::memcpy(out, in[0], size_t(n) * size_t(p.mantissa_bits));
}

// XLA's reduce-precision on the bits of a float of kMantissa / kExponent bits:
// round the mantissa to nearest even, then flush exponents out of the reduced
// range to signed infinity or zero. A NaN stays NaN unless no mantissa bit is
// kept.
template <typename F, typename U, int kMantissa, int kExponent>
inline F ReducePrecisionBits(F value, int exponent_bits, int mantissa_bits) {
  U bits = std::bit_cast<U>(value);
  constexpr int kWidth = int(sizeof(U) * 8);
  if (mantissa_bits < kMantissa) {
    const U last_mantissa_bit_mask = U(1) << (kMantissa - mantissa_bits);
    const U base_rounding_bias = (last_mantissa_bit_mask >> 1) - 1;
    const U x_last_mantissa_bit = (bits & last_mantissa_bit_mask) >> (kMantissa - mantissa_bits);
    const U truncation_mask = ~(last_mantissa_bit_mask - 1);
    bits = (bits + x_last_mantissa_bit + base_rounding_bias) & truncation_mask;
  }
  if (exponent_bits < kExponent) {
    const U sign_mask = U(1) << (kWidth - 1);
    const U exponent_mask = ((U(1) << kExponent) - 1) << kMantissa;
    const int64_t bias = (int64_t{1} << (kExponent - 1)) - 1;
    const int64_t reduced_bias = (int64_t{1} << (exponent_bits - 1)) - 1;
    const U max_exponent = U(bias + reduced_bias) << kMantissa;
    const U min_exponent = U(bias - reduced_bias) << kMantissa;
    const U exponent = bits & exponent_mask;
    const U signed_zero = bits & sign_mask;
    if (exponent > max_exponent) {
      bits = signed_zero | exponent_mask;
    } else if (exponent <= min_exponent) {
      bits = signed_zero;
    }
  }
  F result = std::bit_cast<F>(bits);
  if (std::isnan(value)) result = mantissa_bits > 0 ? value : std::numeric_limits<F>::infinity();
  return result;
}

template <typename T>
void ReducePrecisionLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams& p) {
  const T* a = static_cast<const T*>(in[0]);
  T* o = static_cast<T*>(out);
  const int e = p.exponent_bits, m = p.mantissa_bits;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, double>) {
      o[i] = ReducePrecisionBits<double, uint64_t, 52, 11>(a[i], e, m);
    } else {
      // Narrower floats are exact in f32; the reduced value is exact in T
      // whenever the reduced format fits inside T.
      o[i] = FromCompute<T>(ReducePrecisionBits<float, uint32_t, 23, 8>(ToCompute(a[i]), e, m));
    }
  }
}

// Float -> integer with stochastic rounding: the fraction is compared with the
// random unsigned bits scaled to [0, 1); saturating and NaN -> 0 like convert.
template <typename Fp, typename Rand, typename To>
void StochasticConvertLoop(const void* const* in, void* out, int64_t n, const ElementwiseParams&) {
  const Fp* a = static_cast<const Fp*>(in[0]);
  const Rand* r = static_cast<const Rand*>(in[1]);
  To* o = static_cast<To*>(out);
  using W = WideType<To>;
  const double lo = double(W(std::numeric_limits<To>::lowest()));
  const double hi = double(W(std::numeric_limits<To>::max()));
  for (int64_t i = 0; i < n; ++i) {
    double v = double(ToCompute(a[i]));
    if (std::isnan(v)) {
      o[i] = To(0);
      continue;
    }
    if (v <= lo) {
      o[i] = std::numeric_limits<To>::lowest();
      continue;
    }
    if (v >= hi) {
      o[i] = std::numeric_limits<To>::max();
      continue;
    }
    bool negative = std::signbit(v);
    double magnitude = std::fabs(v);
    double truncated = std::floor(magnitude);
    double fraction = magnitude - truncated;
    uint64_t random = ToBits64(r[i]) & IntegerMask<Rand>();
    double fixed = std::ldexp(fraction, IntegerBits<Rand>());
    if (fraction > 0 && double(random) < fixed) truncated += 1;
    double result = negative ? -truncated : truncated;
    o[i] = result >= hi ? std::numeric_limits<To>::max()
                        : (result <= lo ? std::numeric_limits<To>::lowest() : To(W(result)));
  }
}

}  // namespace

absl::StatusOr<ElementwiseKernel> MakeConvertKernel(PrimitiveType from, PrimitiveType to) {
  if (!primitive_util::IsArrayType(from) || !primitive_util::IsArrayType(to)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot convert ", TypeName(from), " to ", TypeName(to)));
  }
  return ArrayTypeSwitch(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::Native;
    return ArrayTypeSwitch(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::Native;
      return ElementwiseKernel(&ConvertLoop<From, To>, 1, to);
    });
  });
}

absl::StatusOr<ElementwiseKernel> MakeBitcastConvertKernel(PrimitiveType from, PrimitiveType to) {
  if (!primitive_util::IsArrayType(from) || !primitive_util::IsArrayType(to) ||
      primitive_util::BitWidth(from) != primitive_util::BitWidth(to)) {
    return absl::InvalidArgumentError(absl::StrCat("bitcast-convert from ", TypeName(from), " to ",
                                                   TypeName(to), " changes the bit width"));
  }
  if (!primitive_util::IsSubByteType(from) && !primitive_util::IsSubByteType(to) &&
      from != PRED && to != PRED) {
    ElementwiseParams params;
    params.mantissa_bits = primitive_util::ByteWidth(from);
    return ElementwiseKernel(&ByteCopyLoop, 1, to, params);
  }
  return ArrayTypeSwitch(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::Native;
    return ArrayTypeSwitch(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::Native;
      return ElementwiseKernel(&BitcastLoop<From, To>, 1, to);
    });
  });
}

ElementwiseKernel MakeCopyKernel(PrimitiveType type) {
  ElementwiseParams params;
  params.mantissa_bits = primitive_util::ByteWidth(type);
  return ElementwiseKernel(&ByteCopyLoop, 1, type, params);
}

absl::StatusOr<ElementwiseKernel> MakeReducePrecisionKernel(PrimitiveType type, int exponent_bits,
                                                            int mantissa_bits) {
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return absl::InvalidArgumentError(absl::StrCat("reduce-precision needs exponent_bits >= 1 and ",
                                                   "mantissa_bits >= 0, not ", exponent_bits, " and ",
                                                   mantissa_bits));
  }
  ElementwiseParams params{exponent_bits, mantissa_bits};
  return ArrayTypeSwitch(type, [&](auto tag) -> absl::StatusOr<ElementwiseKernel> {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsFloat<T>) {
      return ElementwiseKernel(&ReducePrecisionLoop<T>, 1, type, params);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("reduce-precision does not apply to ", TypeName(type)));
    }
  });
}

absl::StatusOr<ElementwiseKernel> MakeStochasticConvertKernel(PrimitiveType from,
                                                              PrimitiveType random,
                                                              PrimitiveType to) {
  // Only the combinations XLA defines (float -> integer with unsigned bits of
  // the float's width) are instantiated.
  ElementwiseKernel::Fn fn = nullptr;
  auto with_to = [&](auto fp_tag, auto rand_tag) {
    using Fp = typename decltype(fp_tag)::Native;
    using Rand = typename decltype(rand_tag)::Native;
    switch (to) {
#define SYSTOLIC_TO(T)                                                      \
  case T:                                                                   \
    fn = &StochasticConvertLoop<Fp, Rand, NativeTypeOf<T>>;                 \
    break;
      SYSTOLIC_TO(S8)
      SYSTOLIC_TO(S16)
      SYSTOLIC_TO(S32)
      SYSTOLIC_TO(S64)
      SYSTOLIC_TO(U8)
      SYSTOLIC_TO(U16)
      SYSTOLIC_TO(U32)
      SYSTOLIC_TO(U64)
#undef SYSTOLIC_TO
      default:
        break;
    }
  };
  if (from == F16 && random == U16) with_to(PrimitiveTypeTag<F16>{}, PrimitiveTypeTag<U16>{});
  if (from == BF16 && random == U16) with_to(PrimitiveTypeTag<BF16>{}, PrimitiveTypeTag<U16>{});
  if (from == F32 && random == U32) with_to(PrimitiveTypeTag<F32>{}, PrimitiveTypeTag<U32>{});
  if (from == F64 && random == U64) with_to(PrimitiveTypeTag<F64>{}, PrimitiveTypeTag<U64>{});
  if (fn == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("stochastic-convert from ", TypeName(from),
                                                   " with ", TypeName(random), " bits to ",
                                                   TypeName(to), " is not supported"));
  }
  return ElementwiseKernel(fn, 2, to);
}

}  // namespace systolic::eval
