#include "core/hlo/float_types.h"

#include <cmath>

#include "core/hlo/element_convert.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

TEST(FloatTypes, Bf16RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between bf16 1.0 and 1.0078125: ties go to even (1.0).
  EXPECT_EQ(float(bfloat16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  // 1 + 3*2^-8 is halfway between 1.0078125 and 1.015625: even is 1.015625.
  EXPECT_EQ(float(bfloat16(1.0f + 3 * std::ldexp(1.0f, -8))), 1.015625f);
  EXPECT_EQ(float(half(1.0f + std::ldexp(1.0f, -11))), 1.0f);
}

TEST(FloatTypes, E4M3FnRangeAndNan) {
  EXPECT_EQ(float(float8_e4m3fn(448.0f)), 448.0f);
  EXPECT_TRUE(std::isnan(float(float8_e4m3fn(1000.0f))));  // no infinity: overflow is NaN
  EXPECT_TRUE(std::isnan(float(float8_e4m3fn(NAN))));
  EXPECT_EQ(float8_e4m3fn(NAN).bits() & 0x7f, 0x7f);
  // Smallest subnormal: 2^-9.
  EXPECT_EQ(float(float8_e4m3fn::FromBits(0x01)), std::ldexp(1.0f, -9));
  EXPECT_EQ(float(float8_e4m3fn(-1.5f)), -1.5f);
}

TEST(FloatTypes, E5M2HasInfinity) {
  EXPECT_EQ(float(float8_e5m2(57344.0f)), 57344.0f);
  EXPECT_TRUE(std::isinf(float(float8_e5m2(1e6f))));
  EXPECT_EQ(float8_e5m2(INFINITY).bits(), 0x7c);
}

TEST(FloatTypes, FnuzHasSingleNanAndNoNegativeZero) {
  EXPECT_EQ(float8_e4m3fnuz(-0.0f).bits(), 0x00);
  EXPECT_TRUE(std::isnan(float(float8_e4m3fnuz::FromBits(0x80))));
  EXPECT_EQ(float8_e4m3fnuz(NAN).bits(), 0x80);
  EXPECT_EQ(float(float8_e4m3fnuz(240.0f)), 240.0f);
  EXPECT_EQ(float(float8_e4m3b11fnuz(30.0f)), 30.0f);
}

TEST(FloatTypes, EveryE4M3FnPatternRoundTrips) {
  for (int bits = 0; bits < 256; ++bits) {
    float value = float(float8_e4m3fn::FromBits(uint8_t(bits)));
    if (std::isnan(value)) continue;
    EXPECT_EQ(float8_e4m3fn(value).bits(), bits) << "bits " << bits;
  }
}

TEST(FloatTypes, E8M0AndF4) {
  EXPECT_EQ(float(float8_e8m0fnu(8.0f)), 8.0f);
  EXPECT_EQ(float(float4_e2m1fn(6.0f)), 6.0f);
  EXPECT_EQ(float(float4_e2m1fn(100.0f)), 6.0f);  // saturates: no inf, no NaN
  EXPECT_EQ(float(float4_e2m1fn(0.5f)), 0.5f);
  EXPECT_EQ(float(float4_e2m1fn(1.25f)), 1.0f);   // tie to even mantissa
}

// Bit patterns of the MX formats, worked out by hand from their layouts:
// f6e2m3fn is s.ee.mmm with bias 1, f6e3m2fn s.eee.mm with bias 3, f4e2m1fn
// s.ee.m with bias 1. None has infinity or NaN.
TEST(FloatTypes, F6E2M3FnLimitsAndRounding) {
  EXPECT_EQ(float(float6_e2m3fn::FromBits(0x1F)), 7.5f);    // max: 1.875 * 2^2
  EXPECT_EQ(float(float6_e2m3fn::FromBits(0x3F)), -7.5f);
  EXPECT_EQ(float(float6_e2m3fn::FromBits(0x08)), 1.0f);    // min normal: 2^0
  EXPECT_EQ(float(float6_e2m3fn::FromBits(0x01)), 0.125f);  // min subnormal: 2^-3
  EXPECT_EQ(float6_e2m3fn(7.5f).bits(), 0x1F);
  EXPECT_EQ(float6_e2m3fn(100.0f).bits(), 0x1F);   // saturates
  EXPECT_EQ(float6_e2m3fn(7.75f).bits(), 0x1F);    // the tie with 8 saturates too
  EXPECT_EQ(float6_e2m3fn(INFINITY).bits(), 0x1F);
  EXPECT_EQ(float6_e2m3fn(-INFINITY).bits(), 0x3F);
  EXPECT_EQ(float6_e2m3fn(NAN).bits(), 0x20);      // NaN becomes negative zero
  EXPECT_EQ(float6_e2m3fn(-0.0f).bits(), 0x20);
  EXPECT_EQ(float6_e2m3fn(1.0625f).bits(), 0x08);  // tie between 1 and 1.125: even
  EXPECT_EQ(float6_e2m3fn(1.1875f).bits(), 0x0A);  // tie between 1.125 and 1.25: even
  EXPECT_EQ(float6_e2m3fn(0.0625f).bits(), 0x00);  // subnormal tie with zero
  EXPECT_EQ(float6_e2m3fn(0.1875f).bits(), 0x02);  // subnormal tie: 0.25
}

TEST(FloatTypes, F6E3M2FnLimitsAndRounding) {
  EXPECT_EQ(float(float6_e3m2fn::FromBits(0x1F)), 28.0f);     // max: 1.75 * 2^4
  EXPECT_EQ(float(float6_e3m2fn::FromBits(0x04)), 0.25f);     // min normal: 2^-2
  EXPECT_EQ(float(float6_e3m2fn::FromBits(0x01)), 0.0625f);   // min subnormal: 2^-4
  EXPECT_EQ(float6_e3m2fn(30.0f).bits(), 0x1F);
  EXPECT_EQ(float6_e3m2fn(-1e9f).bits(), 0x3F);
  EXPECT_EQ(float6_e3m2fn(NAN).bits(), 0x20);
  EXPECT_EQ(float6_e3m2fn(1.125f).bits(), 0x0C);   // tie between 1 and 1.25: 1
  EXPECT_EQ(float6_e3m2fn(1.375f).bits(), 0x0E);   // tie between 1.25 and 1.5: 1.5
  EXPECT_EQ(float6_e3m2fn(0.09375f).bits(), 0x02); // subnormal tie: 0.125
  EXPECT_EQ(float6_e3m2fn(0.03125f).bits(), 0x00);
}

TEST(FloatTypes, EveryMxPatternRoundTrips) {
  for (int bits = 0; bits < 64; ++bits) {
    EXPECT_EQ(float6_e2m3fn(float(float6_e2m3fn::FromBits(uint8_t(bits)))).bits(), bits);
    EXPECT_EQ(float6_e3m2fn(float(float6_e3m2fn::FromBits(uint8_t(bits)))).bits(), bits);
  }
  for (int bits = 0; bits < 16; ++bits) {
    EXPECT_EQ(float4_e2m1fn(float(float4_e2m1fn::FromBits(uint8_t(bits)))).bits(), bits);
  }
}

TEST(FloatTypes, F4E2M1FnLimitsAndRounding) {
  EXPECT_EQ(float(float4_e2m1fn::FromBits(0x7)), 6.0f);   // max: 1.5 * 2^2
  EXPECT_EQ(float(float4_e2m1fn::FromBits(0x2)), 1.0f);   // min normal
  EXPECT_EQ(float(float4_e2m1fn::FromBits(0x1)), 0.5f);   // min subnormal
  EXPECT_EQ(float4_e2m1fn(INFINITY).bits(), 0x7);
  EXPECT_EQ(float4_e2m1fn(-INFINITY).bits(), 0xF);
  EXPECT_EQ(float4_e2m1fn(NAN).bits(), 0x8);
  EXPECT_EQ(float4_e2m1fn(5.0f).bits(), 0x6);   // tie between 4 and 6: 4
  EXPECT_EQ(float4_e2m1fn(0.75f).bits(), 0x2);  // tie between 0.5 and 1: 1
  EXPECT_EQ(float4_e2m1fn(0.25f).bits(), 0x0);
}

TEST(FloatTypes, E8M0TiesGoToTheEvenExponent) {
  EXPECT_EQ(float8_e8m0fnu(1.0f).bits(), 127);
  EXPECT_EQ(float8_e8m0fnu(1.5f).bits(), 128);  // field 127 is odd: up to 2
  EXPECT_EQ(float8_e8m0fnu(3.0f).bits(), 128);  // field 128 is even: stays 2
  EXPECT_EQ(float8_e8m0fnu(6.0f).bits(), 130);  // field 129 is odd: up to 8
  EXPECT_EQ(float8_e8m0fnu(1.4f).bits(), 127);
  EXPECT_EQ(float8_e8m0fnu(1.6f).bits(), 128);
  EXPECT_EQ(float8_e8m0fnu(std::ldexp(1.0, 127)).bits(), 0xFE);        // max
  EXPECT_EQ(float8_e8m0fnu(std::ldexp(1.5, 127)).bits(), 0xFE);        // tie, 254 even
  EXPECT_EQ(float8_e8m0fnu(std::ldexp(1.0, 128)).bits(), 0xFF);        // beyond: NaN
  EXPECT_EQ(float8_e8m0fnu(std::ldexp(1.0f, -127)).bits(), 0x00);      // min
  EXPECT_EQ(float8_e8m0fnu(NAN).bits(), 0xFF);
  EXPECT_EQ(float8_e8m0fnu(INFINITY).bits(), 0xFF);
  EXPECT_EQ(float8_e8m0fnu(-1.0f).bits(), 0xFF);  // unsigned: negatives are NaN
}

TEST(ElementConvert, F64ToNarrowFloatsRoundsOnce) {
  // Just above the midpoint of 1 and 1.125; through f32 it would become the
  // midpoint itself and round down to 1.
  const double above_tie = 1.0625 + std::ldexp(1.0, -40);
  EXPECT_EQ(float(ConvertElement<float6_e2m3fn>(above_tie)), 1.125f);
  EXPECT_EQ(float(ConvertElement<float8_e4m3fn>(above_tie)), 1.125f);
  EXPECT_EQ(float(ConvertElement<float6_e3m2fn>(1.125 + std::ldexp(1.0, -40))), 1.25f);
  EXPECT_EQ(float(ConvertElement<float6_e2m3fn>(int64_t{7})), 7.0f);
  EXPECT_EQ(float(ConvertElement<float6_e3m2fn>(bfloat16(20.0f))), 20.0f);
  EXPECT_EQ((ConvertElement<int32_t>(float6_e3m2fn(-28.0f))), -28);
}

TEST(SubByteInt, WrapsToWidth) {
  EXPECT_EQ(int(int4(7)), 7);
  EXPECT_EQ(int(int4(8)), -8);
  EXPECT_EQ(int(uint4(17)), 1);
  EXPECT_EQ(int(int2(-3)), 1);
}

TEST(ElementConvert, FloatToIntSaturatesAndNanIsZero) {
  EXPECT_EQ((ConvertElement<int8_t>(300.0f)), 127);
  EXPECT_EQ((ConvertElement<int8_t>(-300.0f)), -128);
  EXPECT_EQ((ConvertElement<int32_t>(NAN)), 0);
  EXPECT_EQ((ConvertElement<uint8_t>(-5.0f)), 0);
  EXPECT_EQ((ConvertElement<int32_t>(-2.7f)), -2);
  EXPECT_EQ((ConvertElement<int64_t>(1e30)), INT64_MAX);
  EXPECT_EQ((ConvertElement<uint32_t>(bfloat16(3.5f))), 3u);
}

TEST(ElementConvert, IntegersWrapAndPredIsNonZero) {
  EXPECT_EQ((ConvertElement<int8_t>(int32_t{300})), 44);
  EXPECT_EQ((ConvertElement<uint8_t>(int32_t{-1})), 255);
  EXPECT_TRUE((ConvertElement<bool>(0.5f)));
  EXPECT_FALSE((ConvertElement<bool>(int32_t{0})));
  EXPECT_EQ((ConvertElement<float>(true)), 1.0f);
  EXPECT_EQ((ConvertElement<complex64>(2.0f)), complex64(2.0f, 0.0f));
}

}  // namespace
}  // namespace systolic
