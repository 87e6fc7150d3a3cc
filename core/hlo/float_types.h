// Host representations of XLA's narrow element types.
//
// bf16 and f16 are Eigen's (round-to-nearest-even from float). The 8-bit and
// 4-bit floats follow the ml_dtypes definitions XLA uses: IEEE-like formats
// with infinities (e5m2, e4m3, e3m4), "FN" formats without infinities whose
// all-ones pattern is NaN, and "FNUZ" formats with a single NaN at 0x80 and no
// negative zero. The MX formats (f4e2m1fn, f6e2m3fn, f6e3m2fn) have neither
// infinity nor NaN. Conversions from double round to nearest even once (no
// detour through float); values beyond the largest finite number become
// infinity when the format has one, NaN when it has NaN but no infinity (XLA's
// non-saturating convert), and the largest finite number in the MX formats,
// which also take infinities to it and NaN to negative zero (ml_dtypes' rule).
// e8m0 holds only powers of two; a value halfway between two of them rounds
// to the even exponent field. Sub-byte integers are stored one per byte and
// wrap to their width.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

namespace systolic {

using half = Eigen::half;
using bfloat16 = Eigen::bfloat16;

enum class MiniFloatNan { kIeee, kAllOnes, kNegativeZero, kNone };

// Describes one narrow float format.
struct MiniFloatFormat {
  int exponent_bits;
  int mantissa_bits;  // explicit bits
  int bias;
  bool has_inf;
  MiniFloatNan nan;
  bool has_sign;  // e8m0 is unsigned
};

float MiniFloatToFloat(uint8_t bits, const MiniFloatFormat& format);
uint8_t FloatToMiniFloat(double value, const MiniFloatFormat& format);

template <int kExponentBits, int kMantissaBits, int kBias, bool kHasInf, MiniFloatNan kNan,
          bool kHasSign = true>
class MiniFloat {
 public:
  static constexpr MiniFloatFormat kFormat{kExponentBits, kMantissaBits, kBias,
                                           kHasInf,       kNan,          kHasSign};

  constexpr MiniFloat() = default;
  explicit MiniFloat(float value) : bits_(FloatToMiniFloat(value, kFormat)) {}
  explicit MiniFloat(double value) : bits_(FloatToMiniFloat(value, kFormat)) {}
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  explicit MiniFloat(T value) : MiniFloat(static_cast<double>(value)) {}
  explicit MiniFloat(half value) : MiniFloat(static_cast<float>(value)) {}
  explicit MiniFloat(bfloat16 value) : MiniFloat(static_cast<float>(value)) {}

  static MiniFloat FromBits(uint8_t bits) {
    MiniFloat f;
    f.bits_ = bits;
    return f;
  }
  uint8_t bits() const { return bits_; }

  operator float() const { return MiniFloatToFloat(bits_, kFormat); }  // NOLINT

  friend bool operator==(MiniFloat a, MiniFloat b) { return float(a) == float(b); }

 private:
  uint8_t bits_ = 0;
};

template <typename T>
struct IsMiniFloat : std::false_type {};
template <int E, int M, int B, bool I, MiniFloatNan N, bool S>
struct IsMiniFloat<MiniFloat<E, M, B, I, N, S>> : std::true_type {};
template <typename T>
inline constexpr bool kIsMiniFloat = IsMiniFloat<T>::value;

using float8_e5m2 = MiniFloat<5, 2, 15, true, MiniFloatNan::kIeee>;
using float8_e4m3 = MiniFloat<4, 3, 7, true, MiniFloatNan::kIeee>;
using float8_e3m4 = MiniFloat<3, 4, 3, true, MiniFloatNan::kIeee>;
using float8_e4m3fn = MiniFloat<4, 3, 7, false, MiniFloatNan::kAllOnes>;
using float8_e4m3fnuz = MiniFloat<4, 3, 8, false, MiniFloatNan::kNegativeZero>;
using float8_e5m2fnuz = MiniFloat<5, 2, 16, false, MiniFloatNan::kNegativeZero>;
using float8_e4m3b11fnuz = MiniFloat<4, 3, 11, false, MiniFloatNan::kNegativeZero>;
using float8_e8m0fnu = MiniFloat<8, 0, 127, false, MiniFloatNan::kAllOnes, false>;
using float4_e2m1fn = MiniFloat<2, 1, 1, false, MiniFloatNan::kNone>;
using float6_e2m3fn = MiniFloat<2, 3, 1, false, MiniFloatNan::kNone>;
using float6_e3m2fn = MiniFloat<3, 2, 3, false, MiniFloatNan::kNone>;

// A signed or unsigned integer of kBits (< 8) stored in one byte, wrapping.
template <int kBits, bool kSigned>
class SubByteInt {
 public:
  using Storage = std::conditional_t<kSigned, int8_t, uint8_t>;
  constexpr SubByteInt() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr SubByteInt(T value)  // NOLINT: behaves like a built-in integer
      : value_(Wrap(static_cast<int64_t>(value))) {}
  constexpr operator Storage() const { return value_; }  // NOLINT

  static constexpr int64_t kMin = kSigned ? -(int64_t{1} << (kBits - 1)) : 0;
  static constexpr int64_t kMax =
      kSigned ? (int64_t{1} << (kBits - 1)) - 1 : (int64_t{1} << kBits) - 1;

 private:
  static constexpr Storage Wrap(int64_t v) {
    uint64_t mask = (uint64_t{1} << kBits) - 1;
    uint64_t u = static_cast<uint64_t>(v) & mask;
    if (kSigned && (u >> (kBits - 1))) return static_cast<Storage>(int64_t(u) - (int64_t{1} << kBits));
    return static_cast<Storage>(u);
  }
  Storage value_ = 0;
};

using int2 = SubByteInt<2, true>;
using uint2 = SubByteInt<2, false>;
using int4 = SubByteInt<4, true>;
using uint4 = SubByteInt<4, false>;

}  // namespace systolic

namespace std {
template <int kBits, bool kSigned>
class numeric_limits<systolic::SubByteInt<kBits, kSigned>> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = kSigned;
  static constexpr bool is_integer = true;
  static constexpr int digits = kSigned ? kBits - 1 : kBits;
  static constexpr systolic::SubByteInt<kBits, kSigned> min() {
    return systolic::SubByteInt<kBits, kSigned>::kMin;
  }
  static constexpr systolic::SubByteInt<kBits, kSigned> lowest() { return min(); }
  static constexpr systolic::SubByteInt<kBits, kSigned> max() {
    return systolic::SubByteInt<kBits, kSigned>::kMax;
  }
};
}  // namespace std
