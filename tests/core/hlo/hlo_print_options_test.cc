// Shortest round-trip float text, full printing of constants, and the
// snapshot form that leaves large constants out.
#include "core/hlo/hlo_print_options.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Bits of a value of type T.
template <typename T>
std::vector<uint8_t> BitsOf(const T& v) {
  std::vector<uint8_t> bits(sizeof(T));
  std::memcpy(bits.data(), &v, sizeof(T));
  return bits;
}

// Prints `values` as a constant of type T, reads the text back and checks
// every element: the same bits, or a NaN of the same sign for a NaN.
template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  Literal literal = Literal::CreateR1<T>(absl::Span<const T>(values));
  const std::string text = literal.ToStringWithoutShape();
  absl::StatusOr<Literal> back = ParseLiteral(text, literal.shape());
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text.substr(0, 200);
  for (size_t i = 0; i < values.size(); ++i) {
    const T got = back->template data<T>()[i];
    const float want_f = static_cast<float>(values[i]);
    if (std::isnan(want_f)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(got))) << i;
      EXPECT_EQ(std::signbit(static_cast<float>(got)), std::signbit(want_f)) << i;
      continue;
    }
    EXPECT_EQ(BitsOf(got), BitsOf(values[i]))
        << "element " << i << " printed as " << literal.ElementToString(int64_t(i));
  }
}

// Appends `n` values of T made of random bits (of the same width, Bits).
template <typename Bits, typename T>
void AppendRandomBitPatterns(int n, std::vector<T>& values) {
  static_assert(sizeof(Bits) == sizeof(T));
  std::mt19937_64 rng(sizeof(T));
  for (int i = 0; i < n; ++i) {
    const Bits bits = Bits(rng());
    T v;
    std::memcpy(&v, &bits, sizeof(v));
    values.push_back(v);
  }
}

TEST(ShortestFloatText, F32RoundTripsIncludingSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.0f, -0.0f, 0.1f, -2.5f, 1.0f / 3.0f, 1e10f, 3.4028235e38f,
                               std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(), 1.17549421e-38f,
                               inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                               -std::numeric_limits<float>::quiet_NaN()};
  AppendRandomBitPatterns<uint32_t>(20000, values);
  ExpectRoundTrip(values);
}

TEST(ShortestFloatText, F64RoundTripsIncludingSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {0.0, -0.0, 0.1, 1.0 / 3.0, 1e300, -1e-300,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(),
                                -std::numeric_limits<double>::denorm_min(), inf, -inf,
                                std::numeric_limits<double>::quiet_NaN()};
  AppendRandomBitPatterns<uint64_t>(20000, values);
  ExpectRoundTrip(values);
}

// Every one of the 65536 values of a 16-bit float type.
template <typename T>
std::vector<T> AllValues() {
  std::vector<T> values;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t b = uint16_t(bits);
    T v;
    static_assert(sizeof(T) == sizeof(b));
    std::memcpy(static_cast<void*>(&v), &b, sizeof(b));  // the type's bits
    values.push_back(v);
  }
  return values;
}

TEST(ShortestFloatText, EveryBf16ValueRoundTrips) { ExpectRoundTrip(AllValues<bfloat16>()); }

TEST(ShortestFloatText, EveryF16ValueRoundTrips) { ExpectRoundTrip(AllValues<half>()); }

TEST(ShortestFloatText, IsTheShortestTextForTheType) {
  EXPECT_EQ(RoundTripFloatToString(0.1f, F32), "0.1");
  EXPECT_EQ(RoundTripFloatToString(-0.0, F32), "-0");
  EXPECT_EQ(RoundTripFloatToString(std::numeric_limits<float>::denorm_min(), F32), "1e-45");
  EXPECT_EQ(RoundTripFloatToString(std::numeric_limits<double>::denorm_min(), F64), "5e-324");
  EXPECT_EQ(RoundTripFloatToString(0.1, F64), "0.1");
  EXPECT_EQ(RoundTripFloatToString(-std::numeric_limits<double>::quiet_NaN(), F64), "-nan");
  EXPECT_EQ(RoundTripFloatToString(-std::numeric_limits<double>::infinity(), BF16), "-inf");
  // bf16(0.1) is 0.10009765625 as a float: one digit reads back to it.
  EXPECT_EQ(RoundTripFloatToString(static_cast<float>(bfloat16(0.1f)), BF16), "0.1");
  EXPECT_EQ(RoundTripFloatToString(static_cast<float>(half(0.1f)), F16), "0.1");
  EXPECT_EQ(RoundTripFloatToString(static_cast<float>(half(-0.0f)), F16), "-0");
  // The smallest f16 denormal, 2^-24 = 5.96e-08: "6e-08" is the nearest.
  EXPECT_EQ(RoundTripFloatToString(std::ldexp(1.0, -24), F16), "6e-08");
}

constexpr char kModule[] = R"(
HloModule m

ENTRY main {
  p = f32[4,8] parameter(0)
  w = f32[8,8] constant({...})
  d = f32[4,8] dot(p, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[3] constant({1.5, -2, 0.25})
  ROOT t = (f32[4,8], f32[3]) tuple(d, s)
}
)";

// kModule with the weights set to i * 0.001 + `offset` for element i.
std::unique_ptr<HloModule> ModuleWithWeights(float offset) {
  auto module = ParseAndReturnVerifiedModule(kModule);
  EXPECT_TRUE(module.ok()) << module.status();
  HloInstruction* w = nullptr;
  for (HloInstruction* instr : (*module)->entry_computation()->instructions()) {
    if (instr->name() == "w") w = instr;
  }
  Literal weights(Shape(F32, {8, 8}));
  for (int64_t i = 0; i < 64; ++i) weights.data<float>()[i] = float(i) * 0.001f + offset;
  w->set_literal(std::move(weights));
  return *std::move(module);
}

TEST(HloPrintOptions, FullPrintingRoundTripsLargeConstants) {
  std::unique_ptr<HloModule> module = ModuleWithWeights(0.7f);
  const std::string text = module->ToString();
  EXPECT_EQ(ModuleText(*module, HloPrintOptions::Full()), text);
  EXPECT_THAT(text, Not(HasSubstr("{...}")));
  EXPECT_THAT(text, HasSubstr("0.763"));  // element 63
  auto back = ParseAndReturnVerifiedModule(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ((*back)->ToString(), text);
}

TEST(HloPrintOptions, SnapshotTextElidesLargeConstantsOnly) {
  std::unique_ptr<HloModule> module = ModuleWithWeights(0.7f);
  const std::string text = ModuleText(*module, HloPrintOptions::WithoutLargeConstants());
  EXPECT_THAT(text, HasSubstr("%w = f32[8,8] constant({...})"));
  EXPECT_THAT(text, Not(HasSubstr("0.763")));
  // Small constants keep their values.
  EXPECT_THAT(text, HasSubstr("constant({1.5, -2, 0.25})"));
  // The elided text still parses; the weights read as zeros.
  auto back = ParseAndReturnVerifiedModule(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(ModuleText(**back, HloPrintOptions::WithoutLargeConstants()), text);
}

TEST(HloPrintOptions, FullLiteralTextGivesAnElidedConstantsValues) {
  std::unique_ptr<HloModule> module = ModuleWithWeights(0.7f);
  const HloInstruction* w = nullptr;
  for (const HloInstruction* instr : module->entry_computation()->instructions()) {
    if (instr->name() == "w") w = instr;
  }
  ASSERT_NE(w, nullptr);
  const std::string values = FullLiteralText(*w);
  EXPECT_EQ(values.substr(0, 10), "f32[8,8] {");
  EXPECT_THAT(values, HasSubstr("0.763}}"));
  auto literal = ParseLiteral(values.substr(9), Shape(F32, {8, 8}));
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(*literal, w->literal());
  EXPECT_EQ(FullLiteralText(*module->entry_computation()->root_instruction()), "");
}

TEST(HloPrintOptions, TupleConstantsElideElementByElement) {
  auto module = ParseAndReturnUnverifiedModule(R"(
HloModule m
ENTRY main {
  ROOT c = (f32[12], s32[2]) constant(({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {5, 6}))
})");
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string text = ModuleText(**module, HloPrintOptions::WithoutLargeConstants());
  EXPECT_THAT(text, HasSubstr("constant(({...}, {5, 6}))"));
  EXPECT_TRUE(ParseAndReturnUnverifiedModule(text).ok());
}

}  // namespace
}  // namespace systolic
