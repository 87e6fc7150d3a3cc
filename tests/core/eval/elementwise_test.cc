// Elementwise opcodes with hand-computed values, the XLA corner cases first.
#include <cmath>
#include <limits>

#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();

TEST(ElementwiseTest, SignedDivisionByZeroAndOverflow) {
  Literal a = R1<int32_t>({7, -7, 5, kMin32, 3, -5});
  Literal b = R1<int32_t>({2, 2, 0, -1, -1, 0});
  EXPECT_EQ(ToInts(RunOp("divide", {&a, &b}, "s32[6]")),
            (std::vector<int64_t>{3, -3, -1, kMin32, -3, -1}));
  EXPECT_EQ(ToInts(RunOp("remainder", {&a, &b}, "s32[6]")),
            (std::vector<int64_t>{1, -1, 5, 0, 0, -5}));
}

TEST(ElementwiseTest, NarrowAndUnsignedDivision) {
  Literal a = R1<int8_t>({-128, 100, -7});
  Literal b = R1<int8_t>({-1, 0, 0});
  EXPECT_EQ(ToInts(RunOp("divide", {&a, &b}, "s8[3]")), (std::vector<int64_t>{-128, -1, -1}));
  EXPECT_EQ(ToInts(RunOp("remainder", {&a, &b}, "s8[3]")), (std::vector<int64_t>{0, 100, -7}));
  Literal u = R1<uint32_t>({10, 10, 0});
  Literal v = R1<uint32_t>({0, 3, 0});
  Literal q = RunOp("divide", {&u, &v}, "u32[3]");
  EXPECT_EQ(q.data<uint32_t>()[0], 0xFFFFFFFFu);
  EXPECT_EQ(q.data<uint32_t>()[1], 3u);
  EXPECT_EQ(q.data<uint32_t>()[2], 0xFFFFFFFFu);
  Literal r = RunOp("remainder", {&u, &v}, "u32[3]");
  EXPECT_EQ(ToInts(r), (std::vector<int64_t>{10, 1, 0}));
}

TEST(ElementwiseTest, ShiftsPastTheWidth) {
  Literal ones = R1<int32_t>({1, 1, 1, 1});
  Literal amounts = R1<int32_t>({3, 31, 32, -1});
  EXPECT_EQ(ToInts(RunOp("shift-left", {&ones, &amounts}, "s32[4]")),
            (std::vector<int64_t>{8, kMin32, 0, 0}));
  Literal minus8 = R1<int32_t>({-8, -8, -8, -8});
  Literal logical = R1<int32_t>({1, 31, 32, 40});
  EXPECT_EQ(ToInts(RunOp("shift-right-logical", {&minus8, &logical}, "s32[4]")),
            (std::vector<int64_t>{0x7FFFFFFC, 1, 0, 0}));
  Literal mixed = R1<int32_t>({-8, 8, -8, 8});
  Literal arithmetic = R1<int32_t>({1, 1, 32, 33});
  EXPECT_EQ(ToInts(RunOp("shift-right-arithmetic", {&mixed, &arithmetic}, "s32[4]")),
            (std::vector<int64_t>{-4, 4, -1, 0}));
  // Unsigned: the arithmetic shift fills with the top bit.
  Literal u = R1<uint8_t>({0x80, 0xFF, 0x80});
  Literal s = R1<uint8_t>({1, 8, 9});
  EXPECT_EQ(ToInts(RunOp("shift-right-arithmetic", {&u, &s}, "u8[3]")),
            (std::vector<int64_t>{0xC0, 0xFF, 0xFF}));
  EXPECT_EQ(ToInts(RunOp("shift-left", {&u, &s}, "u8[3]")), (std::vector<int64_t>{0, 0, 0}));
}

TEST(ElementwiseTest, PopulationCountAndLeadingZeros) {
  Literal a = R1<int32_t>({0, 1, -1, 0xF0});
  EXPECT_EQ(ToInts(RunOp("popcnt", {&a}, "s32[4]")), (std::vector<int64_t>{0, 1, 32, 4}));
  EXPECT_EQ(ToInts(RunOp("count-leading-zeros", {&a}, "s32[4]")),
            (std::vector<int64_t>{32, 31, 0, 24}));
  Literal u = R1<uint8_t>({0, 1, 0x80});
  EXPECT_EQ(ToInts(RunOp("count-leading-zeros", {&u}, "u8[3]")), (std::vector<int64_t>{8, 7, 0}));
  Literal s4 = FromDoubles(S4, {3}, {0, 1, -1});
  EXPECT_EQ(ToInts(RunOp("count-leading-zeros", {&s4}, "s4[3]")), (std::vector<int64_t>{4, 3, 0}));
  EXPECT_EQ(ToInts(RunOp("popcnt", {&s4}, "s4[3]")), (std::vector<int64_t>{0, 1, 4}));
}

TEST(ElementwiseTest, IntegerWrapAround) {
  Literal a = R1<int8_t>({127, -128, 100});
  Literal b = R1<int8_t>({1, -1, 3});
  EXPECT_EQ(ToInts(RunOp("add", {&a, &b}, "s8[3]")), (std::vector<int64_t>{-128, 127, 103}));
  EXPECT_EQ(ToInts(RunOp("multiply", {&a, &b}, "s8[3]")), (std::vector<int64_t>{127, -128, 44}));
  EXPECT_EQ(ToInts(RunOp("negate", {&a}, "s8[3]")), (std::vector<int64_t>{-127, -128, -100}));
  Literal m = R1<int32_t>({kMin32, -3, 4});
  EXPECT_EQ(ToInts(RunOp("abs", {&m}, "s32[3]")), (std::vector<int64_t>{kMin32, 3, 4}));
  EXPECT_EQ(ToInts(RunOp("sign", {&m}, "s32[3]")), (std::vector<int64_t>{-1, -1, 1}));
  Literal s4a = FromDoubles(S4, {2}, {7, -8});
  Literal s4b = FromDoubles(S4, {2}, {1, -1});
  EXPECT_EQ(ToInts(RunOp("add", {&s4a, &s4b}, "s4[2]")), (std::vector<int64_t>{-8, 7}));
}

TEST(ElementwiseTest, IntegerPower) {
  Literal base = R1<int32_t>({2, 2, 1, -1, 0, 3, 5});
  Literal exponent = R1<int32_t>({10, -1, -5, 3, 0, 0, 31});
  // 5^31 wraps modulo 2^32.
  uint32_t wrapped = 1;
  for (int i = 0; i < 31; ++i) wrapped *= 5u;
  EXPECT_EQ(ToInts(RunOp("power", {&base, &exponent}, "s32[7]")),
            (std::vector<int64_t>{1024, 0, 1, -1, 1, 1, int32_t(wrapped)}));
}

TEST(ElementwiseTest, FloatMaximumMinimumPropagateNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Literal a = R1<float>({nan, 1, 2, -0.0f});
  Literal b = R1<float>({1, nan, 3, 0.0f});
  ExpectNear(RunOp("maximum", {&a, &b}, "f32[4]"), {NAN, NAN, 3, 0});
  ExpectNear(RunOp("minimum", {&a, &b}, "f32[4]"), {NAN, NAN, 2, 0});
}

TEST(ElementwiseTest, CompareDirectionsAndTotalOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Literal a = R1<float>({-0.0f, nan, -nan, -inf, 1});
  Literal b = R1<float>({0.0f, inf, -inf, -3, 1});
  auto preds = [](const Literal& l) {
    std::vector<int64_t> v = ToInts(l);
    return v;
  };
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=LT, type=TOTALORDER")),
            (std::vector<int64_t>{1, 0, 1, 1, 0}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=LT")),
            (std::vector<int64_t>{0, 0, 0, 1, 0}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=EQ")),
            (std::vector<int64_t>{1, 0, 0, 0, 1}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=NE")),
            (std::vector<int64_t>{0, 1, 1, 1, 0}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=GE")),
            (std::vector<int64_t>{1, 0, 0, 0, 1}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=GT, type=TOTALORDER")),
            (std::vector<int64_t>{0, 1, 0, 0, 0}));
  EXPECT_EQ(preds(RunOp("compare", {&a, &b}, "pred[5]", "direction=LE, type=TOTALORDER")),
            (std::vector<int64_t>{1, 0, 1, 1, 1}));
  Literal x = R1<uint32_t>({1, 0xFFFFFFFF});
  Literal y = R1<uint32_t>({2, 1});
  EXPECT_EQ(preds(RunOp("compare", {&x, &y}, "pred[2]", "direction=LT")),
            (std::vector<int64_t>{1, 0}));
  Literal c1 = Literal::CreateR1<complex64>({{1, 2}, {1, 2}});
  Literal c2 = Literal::CreateR1<complex64>({{1, 2}, {1, -2}});
  EXPECT_EQ(preds(RunOp("compare", {&c1, &c2}, "pred[2]", "direction=EQ")),
            (std::vector<int64_t>{1, 0}));
}

TEST(ElementwiseTest, SelectAndClampBroadcastScalars) {
  Literal p = R0<bool>(false);
  Literal a = R1<int32_t>({1, 2, 3});
  Literal b = R1<int32_t>({4, 5, 6});
  EXPECT_EQ(ToInts(RunOp("select", {&p, &a, &b}, "s32[3]")), (std::vector<int64_t>{4, 5, 6}));
  Literal mask = R1<bool>({true, false, true});
  EXPECT_EQ(ToInts(RunOp("select", {&mask, &a, &b}, "s32[3]")), (std::vector<int64_t>{1, 5, 3}));
  Literal lo = R0<float>(-1);
  Literal x = R1<float>({-5, 0.5, 7, NAN});
  Literal hi = R0<float>(2);
  ExpectNear(RunOp("clamp", {&lo, &x, &hi}, "f32[4]"), {-1, 0.5, 2, NAN});
}

TEST(ElementwiseTest, ConvertSaturatesAndMapsNanToZero) {
  Literal f = R1<float>({1e10f, -1e10f, NAN, -2.7f, 2.7f});
  EXPECT_EQ(ToInts(RunOp("convert", {&f}, "s32[5]")),
            (std::vector<int64_t>{kMax32, kMin32, 0, -2, 2}));
  Literal g = R1<float>({-5, 300, 3.9f});
  EXPECT_EQ(ToInts(RunOp("convert", {&g}, "u8[3]")), (std::vector<int64_t>{0, 255, 3}));
  Literal i = R1<int32_t>({300, -1, 16777217});
  EXPECT_EQ(ToInts(RunOp("convert", {&i}, "s8[3]")), (std::vector<int64_t>{44, -1, 1}));
  Literal u = RunOp("convert", {&i}, "u32[3]");
  EXPECT_EQ(u.data<uint32_t>()[1], 0xFFFFFFFFu);
  // int -> float rounds to nearest even.
  ExpectNear(RunOp("convert", {&i}, "f32[3]"), {300, -1, 16777216}, 0);
}

TEST(ElementwiseTest, ConvertRoundsNarrowFloatsToNearestEven) {
  // bf16 keeps 7 mantissa bits: the spacing at 1 is 2^-7.
  Literal f = R1<float>({1 + 0x1p-8f, 1 + 3 * 0x1p-8f, 70000.0f, 500.0f});
  ExpectNear(RunOp("convert", {&f}, "bf16[4]"), {1, 1 + 0x1p-6, 70144, 500}, 0);
  Literal h = RunOp("convert", {&f}, "f16[4]");
  EXPECT_TRUE(std::isinf(h.GetAsDouble(2)));
  // f8e4m3fn has no infinity: beyond 448 is NaN (XLA's non-saturating convert).
  Literal e4 = RunOp("convert", {&f}, "f8e4m3fn[4]");
  EXPECT_TRUE(std::isnan(e4.GetAsDouble(3)));
  ExpectNear(e4, {1, 1, NAN, NAN}, 0);
  Literal e5 = RunOp("convert", {&f}, "f8e5m2[4]");
  EXPECT_TRUE(std::isinf(e5.GetAsDouble(2)));
  // f16 arithmetic rounds once: 2048 + 1 ties to 2048 (even).
  Literal a = FromDoubles(F16, {2}, {2048, 2048});
  Literal b = FromDoubles(F16, {2}, {1, 3});
  ExpectNear(RunOp("add", {&a, &b}, "f16[2]"), {2048, 2052}, 0);
}

TEST(ElementwiseTest, ConvertToMxFloatsSaturatesAndRoundsToEven) {
  Literal f = R1<float>({100.0f, -INFINITY, 1.0625f, 0.09375f, NAN});
  // f6e2m3fn: max 7.5, the tie 1.0625 goes to 1 (even mantissa).
  Literal e2m3 = RunOp("convert", {&f}, "f6e2m3fn[5]");
  ExpectNear(e2m3, {7.5, -7.5, 1, 0.125, 0}, 0);
  EXPECT_TRUE(std::signbit(e2m3.GetAsDouble(4)));  // NaN becomes -0
  // f6e3m2fn: max 28, 0.09375 is a subnormal tie that goes to 0.125.
  ExpectNear(RunOp("convert", {&f}, "f6e3m2fn[5]"), {28, -28, 1, 0.125, 0}, 0);
  // And back: every value of the narrow type is exact in f32 and s32.
  Literal narrow = FromDoubles(F6E3M2FN, {3}, {-28, 0.0625, 12});
  ExpectNear(RunOp("convert", {&narrow}, "f32[3]"), {-28, 0.0625, 12}, 0);
  EXPECT_EQ(ToInts(RunOp("convert", {&narrow}, "s32[3]")), (std::vector<int64_t>{-28, 0, 12}));
  // Between the two f6 types: 7.5 exists in e2m3 but rounds to 8 in e3m2.
  Literal from_e2m3 = FromDoubles(F6E2M3FN, {2}, {7.5, 0.125});
  ExpectNear(RunOp("convert", {&from_e2m3}, "f6e3m2fn[2]"), {8, 0.125}, 0);
  // Arithmetic rounds once into the type: 7.5 + 7.5 saturates at 7.5.
  ExpectNear(RunOp("add", {&from_e2m3, &from_e2m3}, "f6e2m3fn[2]"), {7.5, 0.25}, 0);
}

TEST(ElementwiseTest, BitcastConvertSameAndChangingWidth) {
  Literal f = R1<float>({1.0f, -2.0f});
  Literal u = RunOp("bitcast-convert", {&f}, "u32[2]");
  EXPECT_EQ(u.data<uint32_t>()[0], 0x3F800000u);
  EXPECT_EQ(u.data<uint32_t>()[1], 0xC0000000u);
  Literal bytes = RunOp("bitcast-convert", {&f}, "u8[2,4]");
  EXPECT_EQ(ToInts(bytes), (std::vector<int64_t>{0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}));
  Literal back = RunOp("bitcast-convert", {&bytes}, "f32[2]");
  EXPECT_EQ(back, f);
  Literal s8 = R1<int8_t>({0x21, int8_t(0xF7)});
  Literal nibbles = RunOp("bitcast-convert", {&s8}, "s4[2,2]");
  EXPECT_EQ(ToInts(nibbles), (std::vector<int64_t>{1, 2, 7, -1}));
  EXPECT_EQ(RunOp("bitcast-convert", {&nibbles}, "s8[2]"), s8);
}

TEST(ElementwiseTest, ReducePrecision) {
  Literal f = R1<float>({1 + 0x1p-8f, 1 + 3 * 0x1p-8f, 1e5f, 1e-10f, NAN, -1e5f});
  Literal bf = RunOp("reduce-precision", {&f}, "f32[6]", "exponent_bits=8, mantissa_bits=7");
  ExpectNear(bf, {1, 1 + 0x1p-6, 99840, 1e-10, NAN, -99840}, 1e-6);
  Literal half = RunOp("reduce-precision", {&f}, "f32[6]", "exponent_bits=5, mantissa_bits=10");
  EXPECT_TRUE(std::isinf(half.GetAsDouble(2)) && half.GetAsDouble(2) > 0);
  EXPECT_EQ(half.GetAsDouble(3), 0.0);
  EXPECT_TRUE(std::isinf(half.GetAsDouble(5)) && half.GetAsDouble(5) < 0);
  Literal nan = R1<float>({NAN});
  Literal none = RunOp("reduce-precision", {&nan}, "f32[1]", "exponent_bits=8, mantissa_bits=0");
  EXPECT_TRUE(std::isinf(none.GetAsDouble(0)));
}

TEST(ElementwiseTest, Rounding) {
  Literal f = R1<float>({0.5, 1.5, 2.5, -0.5, -2.5, 2.4f});
  ExpectNear(RunOp("round-nearest-afz", {&f}, "f32[6]"), {1, 2, 3, -1, -3, 2}, 0);
  Literal even = RunOp("round-nearest-even", {&f}, "f32[6]");
  ExpectNear(even, {0, 2, 2, -0.0, -2, 2}, 0);
  EXPECT_TRUE(std::signbit(even.GetAsDouble(3)));
  ExpectNear(RunOp("floor", {&f}, "f32[6]"), {0, 1, 2, -1, -3, 2}, 0);
  ExpectNear(RunOp("ceil", {&f}, "f32[6]"), {1, 2, 3, -0.0, -2, 3}, 0);
}

TEST(ElementwiseTest, ComplexArithmetic) {
  Literal re = R1<float>({1, 3});
  Literal im = R1<float>({3, 4});
  Literal z = RunOp("complex", {&re, &im}, "c64[2]");
  EXPECT_EQ(z.data<complex64>()[0], complex64(1, 3));
  Literal w = Literal::CreateR1<complex64>({{2, 4}, {1, 0}});
  Literal product = RunOp("multiply", {&z, &w}, "c64[2]");
  EXPECT_EQ(product.data<complex64>()[0], complex64(-10, 10));
  ExpectNear(RunOp("abs", {&z}, "f32[2]"), {std::sqrt(10.0), 5});
  ExpectNear(RunOp("real", {&z}, "f32[2]"), {1, 3}, 0);
  ExpectNear(RunOp("imag", {&z}, "f32[2]"), {3, 4}, 0);
  Literal q = RunOp("divide", {&product, &w}, "c64[2]");
  EXPECT_NEAR(std::abs(q.data<complex64>()[0] - complex64(1, 3)), 0, 1e-6);
  Literal e = RunOp("exponential", {&z}, "c64[2]");
  EXPECT_NEAR(std::abs(e.data<complex64>()[1] - std::exp(complex64(3, 4))), 0, 1e-5);
}

TEST(ElementwiseTest, TranscendentalsInF32AndRoundedForNarrowTypes) {
  Literal f = R1<float>({1, 4, 0, 27});
  ExpectNear(RunOp("exponential", {&f}, "f32[4]"), {std::exp(1.0f), std::exp(4.0f), 1, std::exp(27.0f)},
             1e-7);
  ExpectNear(RunOp("rsqrt", {&f}, "f32[4]"), {1, 0.5, INFINITY, 1 / std::sqrt(27.0)});
  ExpectNear(RunOp("cbrt", {&f}, "f32[4]"), {1, std::cbrt(4.0), 0, 3});
  ExpectNear(RunOp("logistic", {&f}, "f32[4]"),
             {1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(-4.0)), 0.5, 1});
  ExpectNear(RunOp("tanh", {&f}, "f32[4]"), {std::tanh(1.0), std::tanh(4.0), 0, 1});
  ExpectNear(RunOp("log-plus-one", {&f}, "f32[4]"), {std::log(2.0), std::log(5.0), 0, std::log(28.0)});
  ExpectNear(RunOp("exponential-minus-one", {&f}, "f32[4]"),
             {std::expm1(1.0), std::expm1(4.0), 0, std::expm1(27.0)});
  ExpectNear(RunOp("erf", {&f}, "f32[4]"), {std::erf(1.0), std::erf(4.0), 0, 1});
  // bf16: computed in f32, rounded once (e = 2.71828 -> 2.71875).
  Literal b = FromDoubles(BF16, {2}, {1, 2});
  ExpectNear(RunOp("exponential", {&b}, "bf16[2]"), {2.71875, 7.375}, 0);
  Literal t = FromDoubles(F64, {2}, {0.5, 2});
  ExpectNear(RunOp("sine", {&t}, "f64[2]"), {std::sin(0.5), std::sin(2.0)}, 1e-15);
  ExpectNear(RunOp("cosine", {&t}, "f64[2]"), {std::cos(0.5), std::cos(2.0)}, 1e-15);
  ExpectNear(RunOp("tan", {&t}, "f64[2]"), {std::tan(0.5), std::tan(2.0)}, 1e-15);
  Literal s = R1<float>({-0.0f, NAN, -3, INFINITY});
  Literal sign = RunOp("sign", {&s}, "f32[4]");
  EXPECT_TRUE(std::signbit(sign.GetAsDouble(0)) && sign.GetAsDouble(0) == 0);
  ExpectNear(sign, {0, NAN, -1, 1}, 0);
  EXPECT_EQ(ToInts(RunOp("is-finite", {&s}, "pred[4]")), (std::vector<int64_t>{1, 0, 1, 0}));
  Literal y = R1<float>({1, -1});
  Literal x = R1<float>({-1, -1});
  ExpectNear(RunOp("atan2", {&y, &x}, "f32[2]"), {std::atan2(1.0, -1.0), std::atan2(-1.0, -1.0)});
  Literal base = R1<float>({2, 0, -8});
  Literal exponent = R1<float>({0.5, 0, 1.0f / 3});
  ExpectNear(RunOp("power", {&base, &exponent}, "f32[3]"), {std::sqrt(2.0), 1, NAN});
}

TEST(ElementwiseTest, ComplexExpm1AndLog1pKeepPrecisionNearZero) {
  // expm1(z) = z + z^2/2 + ... and log1p(z) = z - z^2/2 + ...: for
  // z = 1e-10 (1 + i), z^2 = 2e-20 i.
  Literal z = Literal::CreateR1<complex128>({{1e-10, 1e-10}, {1e300, 1e300}, {-0.5, 0}});
  Literal e = RunOp("exponential-minus-one", {&z}, "c128[3]");
  const complex128 e0 = e.data<complex128>()[0];
  EXPECT_NEAR(e0.real(), 1e-10, 1e-24);
  EXPECT_NEAR(e0.imag(), 1e-10 + 1e-20, 1e-24);
  Literal l = RunOp("log-plus-one", {&z}, "c128[3]");
  const complex128 l0 = l.data<complex128>()[0];
  EXPECT_NEAR(l0.real(), 1e-10, 1e-24);
  EXPECT_NEAR(l0.imag(), 1e-10 - 1e-20, 1e-24);
  // Far from zero the squares would overflow: log|1 + z| = log(sqrt(2) 1e300).
  const complex128 l1 = l.data<complex128>()[1];
  EXPECT_NEAR(l1.real(), std::log(std::sqrt(2.0)) + 300 * std::log(10.0), 1e-12);
  EXPECT_NEAR(l1.imag(), std::atan(1.0), 1e-15);
  EXPECT_NEAR(l.data<complex128>()[2].real(), std::log(0.5), 1e-15);
  EXPECT_NEAR(e.data<complex128>()[2].real(), std::expm1(-0.5), 1e-15);
  EXPECT_EQ(e.data<complex128>()[2].imag(), 0.0);
}

TEST(ElementwiseTest, PredLogic) {
  Literal a = R1<bool>({true, true, false, false});
  Literal b = R1<bool>({true, false, true, false});
  EXPECT_EQ(ToInts(RunOp("and", {&a, &b}, "pred[4]")), (std::vector<int64_t>{1, 0, 0, 0}));
  EXPECT_EQ(ToInts(RunOp("or", {&a, &b}, "pred[4]")), (std::vector<int64_t>{1, 1, 1, 0}));
  EXPECT_EQ(ToInts(RunOp("xor", {&a, &b}, "pred[4]")), (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(ToInts(RunOp("not", {&a}, "pred[4]")), (std::vector<int64_t>{0, 0, 1, 1}));
  Literal i = R1<int32_t>({0x0F, -1});
  Literal j = R1<int32_t>({0x3C, 5});
  EXPECT_EQ(ToInts(RunOp("xor", {&i, &j}, "s32[2]")), (std::vector<int64_t>{0x33, -6}));
  EXPECT_EQ(ToInts(RunOp("not", {&i}, "s32[2]")), (std::vector<int64_t>{~0x0F, 0}));
}

TEST(ElementwiseTest, LargeArraysMatchElementByElement) {
  // More than one chunk, with a broadcast scalar operand.
  const int n = 5000;
  Literal x(Shape(F32, {n}));
  for (int i = 0; i < n; ++i) x.data<float>()[i] = float(i) * 0.25f - 100;
  Literal lo = R0<float>(-10), hi = R0<float>(10);
  Literal c = RunOp("clamp", {&lo, &x, &hi}, "f32[5000]");
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(c.data<float>()[i], std::min(10.0f, std::max(-10.0f, x.data<float>()[i])));
  }
}

TEST(ElementwiseTest, WrongTypeIsAnErrorNamingTheInstruction) {
  const std::string text = R"(
HloModule bad
ENTRY e {
  a = f32[2] parameter(0)
  ROOT shifted = f32[2] shift-left(a, a)
})";
  auto result = RunHlo(text, Args(R1<float>({1, 2})), {}, /*verify=*/false);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("shifted"), std::string::npos)
      << result.status().message();
}

}  // namespace
}  // namespace systolic::eval_test
