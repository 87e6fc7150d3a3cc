#include "core/hlo/shape.h"

#include "core/hlo/hlo_opcode.h"
#include "core/hlo/primitive_type.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

TEST(PrimitiveType, NamesRoundTrip) {
  for (int t = PRED; t < PRIMITIVE_TYPE_COUNT; ++t) {
    auto name = primitive_util::LowercasePrimitiveTypeName(PrimitiveType(t));
    auto parsed = primitive_util::StringToPrimitiveType(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_FALSE(primitive_util::StringToPrimitiveType("f31").ok());
}

TEST(PrimitiveType, Properties) {
  EXPECT_EQ(primitive_util::BitWidth(S4), 4);
  EXPECT_EQ(primitive_util::ByteWidth(S4), 1);
  EXPECT_EQ(primitive_util::BitWidth(C64), 64);
  EXPECT_EQ(primitive_util::ByteWidth(BF16), 2);
  EXPECT_TRUE(primitive_util::IsFloatingPointType(F8E4M3FN));
  EXPECT_FALSE(primitive_util::IsFloatingPointType(C64));
  EXPECT_TRUE(primitive_util::IsComplexType(C128));
  EXPECT_TRUE(primitive_util::IsUnsignedIntegralType(U4));
  EXPECT_FALSE(primitive_util::IsIntegralType(PRED));
  EXPECT_FALSE(primitive_util::IsArrayType(TOKEN));
  EXPECT_EQ(primitive_util::SignificandWidth(BF16), 8);
}

TEST(PrimitiveType, MxFloatsAreSixBitsInOneByte) {
  for (PrimitiveType t : {F6E2M3FN, F6E3M2FN}) {
    EXPECT_EQ(primitive_util::BitWidth(t), 6);
    EXPECT_EQ(primitive_util::ByteWidth(t), 1);
    EXPECT_TRUE(primitive_util::IsSubByteType(t));
    EXPECT_TRUE(primitive_util::IsFloatingPointType(t));
    EXPECT_TRUE(primitive_util::IsArrayType(t));
    EXPECT_FALSE(primitive_util::HasInfinity(t));
  }
  EXPECT_EQ(primitive_util::ExponentWidth(F6E2M3FN), 2);
  EXPECT_EQ(primitive_util::SignificandWidth(F6E2M3FN), 4);
  EXPECT_EQ(primitive_util::ExponentWidth(F6E3M2FN), 3);
  EXPECT_EQ(primitive_util::LowercasePrimitiveTypeName(F6E3M2FN), "f6e3m2fn");
  EXPECT_EQ(*primitive_util::StringToPrimitiveType("f6e2m3fn"), F6E2M3FN);
  EXPECT_EQ(Shape(F6E3M2FN, {2, 3}).ToString(), "f6e3m2fn[2,3]");
}

TEST(Shape, PrintsArraysTuplesAndDynamicDims) {
  Shape s(F32, {2, 3});
  EXPECT_EQ(s.ToString(), "f32[2,3]");
  EXPECT_EQ(s.num_elements(), 6);
  s.set_dynamic_dimension(1, true);
  EXPECT_EQ(s.ToString(), "f32[2,<=3]");
  EXPECT_FALSE(s.is_static());
  Shape t = Shape::MakeTuple({Shape(S32, {}), Shape::MakeToken()});
  EXPECT_EQ(t.ToString(), "(s32[], token[])");
  EXPECT_TRUE(Shape(PRED, {}).IsScalar());
}

TEST(Shape, LayoutWithTilesAndMemorySpace) {
  Shape s(BF16, {256, 512});
  Layout layout({1, 0});
  layout.mutable_tiles()->push_back(Tile{{8, 128}});
  layout.mutable_tiles()->push_back(Tile{{2, 1}});
  layout.set_memory_space(1);
  s.set_layout(layout);
  EXPECT_EQ(s.ToString(true), "bf16[256,512]{1,0:T(8,128)(2,1)S(1)}");
  EXPECT_EQ(s.ToString(false), "bf16[256,512]");
  Shape scalar(F32, {});
  scalar.set_layout(Layout());
  EXPECT_EQ(scalar.ToString(true), "f32[]");
}

TEST(Shape, EqualityConsidersLayoutOnlyWhenBothHaveOne) {
  Shape a(F32, {2, 3});
  Shape b(F32, {2, 3});
  b.set_layout(Layout({0, 1}));
  EXPECT_EQ(a, b);
  Shape c = a;
  c.set_layout(Layout({1, 0}));
  EXPECT_NE(b, c);
  EXPECT_NE(Shape(F32, {2}), Shape(F32, {3}));
}

TEST(HloOpcode, NamesAndArity) {
  EXPECT_EQ(HloOpcodeString(HloOpcode::kExpm1), "exponential-minus-one");
  EXPECT_EQ(StringToHloOpcode("all-reduce-start"), HloOpcode::kAllReduceStart);
  EXPECT_FALSE(StringToHloOpcode("frobnicate").has_value());
  EXPECT_EQ(HloOpcodeArity(HloOpcode::kSelect), 3);
  EXPECT_EQ(HloOpcodeArity(HloOpcode::kTuple), kHloOpcodeVariadic);
  EXPECT_EQ(kHloOpcodeCount, 124);
  for (int i = 0; i < kHloOpcodeCount; ++i) {
    EXPECT_EQ(StringToHloOpcode(HloOpcodeString(HloOpcode(i))), HloOpcode(i));
  }
}

}  // namespace
}  // namespace systolic
