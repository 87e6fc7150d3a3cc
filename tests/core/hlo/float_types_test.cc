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
