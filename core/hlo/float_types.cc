#include "core/hlo/float_types.h"

#include <cmath>

namespace systolic {
namespace {

int MaxExponentField(const MiniFloatFormat& f) { return (1 << f.exponent_bits) - 1; }

// The all-ones exponent is reserved for inf/NaN only in IEEE-like formats.
int LargestFiniteExponentField(const MiniFloatFormat& f) {
  return f.nan == MiniFloatNan::kIeee ? MaxExponentField(f) - 1 : MaxExponentField(f);
}

int LargestFiniteMantissa(const MiniFloatFormat& f) {
  int all = (1 << f.mantissa_bits) - 1;
  // FN formats spend the all-ones pattern (max exponent, max mantissa) on NaN.
  if (f.nan == MiniFloatNan::kAllOnes) return f.mantissa_bits == 0 ? -1 : all - 1;
  return all;
}

double LargestFinite(const MiniFloatFormat& f) {
  int exp_field = LargestFiniteExponentField(f);
  int mant = LargestFiniteMantissa(f);
  if (mant < 0) {  // e8m0: the all-ones exponent is NaN, so step down one
    exp_field -= 1;
    mant = 0;
  }
  return std::ldexp(1.0 + mant / double(1 << f.mantissa_bits), exp_field - f.bias);
}

uint8_t NanBits(const MiniFloatFormat& f) {
  int total_bits = (f.has_sign ? 1 : 0) + f.exponent_bits + f.mantissa_bits;
  switch (f.nan) {
    case MiniFloatNan::kNegativeZero:
      return 0x80;
    case MiniFloatNan::kIeee:  // quiet NaN: all-ones exponent, top mantissa bit
      return uint8_t((MaxExponentField(f) << f.mantissa_bits) | (1 << (f.mantissa_bits - 1)));
    case MiniFloatNan::kAllOnes:
      return uint8_t((1 << (total_bits - (f.has_sign ? 1 : 0))) - 1);
    case MiniFloatNan::kNone:
      return 0;  // no NaN: callers map NaN to zero's neighbour below
  }
  return 0;
}

}  // namespace

float MiniFloatToFloat(uint8_t bits, const MiniFloatFormat& f) {
  int sign_shift = f.exponent_bits + f.mantissa_bits;
  bool negative = f.has_sign && ((bits >> sign_shift) & 1);
  int exp_field = (bits >> f.mantissa_bits) & MaxExponentField(f);
  int mant = bits & ((1 << f.mantissa_bits) - 1);
  if (f.nan == MiniFloatNan::kNegativeZero && bits == 0x80) return NAN;
  if (f.nan == MiniFloatNan::kAllOnes && exp_field == MaxExponentField(f) &&
      mant == (1 << f.mantissa_bits) - 1) {
    return NAN;
  }
  if (f.nan == MiniFloatNan::kIeee && exp_field == MaxExponentField(f)) {
    if (mant != 0) return NAN;
    return negative ? -INFINITY : INFINITY;
  }
  double value;
  if (exp_field == 0 && f.mantissa_bits > 0) {
    value = std::ldexp(mant / double(1 << f.mantissa_bits), 1 - f.bias);
  } else {
    value = std::ldexp(1.0 + mant / double(1 << f.mantissa_bits), exp_field - f.bias);
  }
  return float(negative ? -value : value);
}

uint8_t FloatToMiniFloat(double value, const MiniFloatFormat& f) {
  int sign_shift = f.exponent_bits + f.mantissa_bits;
  uint8_t sign_bit = (f.has_sign && std::signbit(value)) ? uint8_t(1u << sign_shift) : 0;
  // The MX formats have no NaN; ml_dtypes gives NaN their negative zero.
  const uint8_t negative_zero = uint8_t(1u << sign_shift);
  if (std::isnan(value)) {
    if (f.nan == MiniFloatNan::kNone) return negative_zero;
    return NanBits(f) | (f.nan == MiniFloatNan::kNegativeZero ? 0 : sign_bit);
  }
  double magnitude = std::fabs(value);
  if (!f.has_sign && std::signbit(value) && magnitude != 0) return NanBits(f);
  double largest = LargestFinite(f);
  if (std::isinf(magnitude)) {
    if (f.has_inf) return sign_bit | uint8_t(MaxExponentField(f) << f.mantissa_bits);
    if (f.nan == MiniFloatNan::kNone) return sign_bit | uint8_t((1 << sign_shift) - 1);
    return NanBits(f) | (f.nan == MiniFloatNan::kNegativeZero ? 0 : sign_bit);
  }
  // Smallest exponent of a normal number; below it the spacing stays fixed.
  int min_normal_exp = 1 - f.bias;
  int exp = magnitude == 0 ? min_normal_exp : std::ilogb(magnitude);
  if (f.mantissa_bits == 0) {
    // e8m0: powers of two only and no zero. Round to nearest in the linear
    // domain (the midpoint of 2^e and 2^(e+1) is 1.5 * 2^e); a tie goes to the
    // even exponent field, as rounding the significand to zero bits does.
    if (magnitude == 0) return 0;
    int e = std::ilogb(magnitude);
    double frac = std::ldexp(magnitude, -e);
    if (frac > 1.5 || (frac == 1.5 && ((e + f.bias) & 1) != 0)) e += 1;
    int field = e + f.bias;
    if (field < 0) field = 0;
    if (field > MaxExponentField(f) - 1) return NanBits(f);
    return uint8_t(field);
  }
  if (exp < min_normal_exp) exp = min_normal_exp;
  double quantum = std::ldexp(1.0, exp - f.mantissa_bits);
  double rounded = std::nearbyint(magnitude / quantum) * quantum;  // ties to even
  if (rounded > largest) {
    if (f.has_inf) return sign_bit | uint8_t(MaxExponentField(f) << f.mantissa_bits);
    if (f.nan == MiniFloatNan::kNone) {  // f4e2m1fn saturates: it has neither inf nor NaN
      rounded = largest;
    } else {
      return NanBits(f) | (f.nan == MiniFloatNan::kNegativeZero ? 0 : sign_bit);
    }
  }
  if (rounded == 0) {
    // FNUZ formats have no negative zero.
    return f.nan == MiniFloatNan::kNegativeZero ? 0 : sign_bit;
  }
  int rexp = std::ilogb(rounded);
  uint8_t bits;
  if (rexp < min_normal_exp) {
    int mant = int(std::ldexp(rounded, f.mantissa_bits - min_normal_exp));
    bits = uint8_t(mant);
  } else {
    int exp_field = rexp + f.bias;
    int mant = int(std::ldexp(rounded, f.mantissa_bits - rexp)) - (1 << f.mantissa_bits);
    bits = uint8_t((exp_field << f.mantissa_bits) | mant);
  }
  return sign_bit | bits;
}

}  // namespace systolic
