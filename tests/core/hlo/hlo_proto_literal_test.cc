// Literals to and from XLA's LiteralProto: each element type in XLA's field
// for it, and back bit for bit.
#include "core/hlo/hlo_proto_literal.h"

#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

Literal Parse(absl::string_view shape_text, absl::string_view value) {
  absl::StatusOr<Shape> shape = ParseShape(shape_text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  absl::StatusOr<Literal> literal = ParseLiteral(value, *shape);
  EXPECT_TRUE(literal.ok()) << shape_text << " " << value << ": " << literal.status();
  return literal.ok() ? *std::move(literal) : Literal();
}

TEST(HloProtoLiteral, EveryElementTypeRoundTrips) {
  const std::pair<const char*, const char*> cases[] = {
      {"pred[3]", "{true, false, true}"},
      {"s2[3]", "{-2, 1, 0}"},
      {"s4[4]", "{-8, 7, -1, 3}"},
      {"u4[2]", "{15, 1}"},
      {"s8[2]", "{-128, 127}"},
      {"u8[2]", "{0, 255}"},
      {"s16[2]", "{-300, 300}"},
      {"u16[2]", "{65535, 1}"},
      {"s32[2,2]", "{{1, -2}, {3, -4}}"},
      {"u32[1]", "{4000000000}"},
      {"s64[2]", "{-9000000000, 9000000000}"},
      {"u64[1]", "{18000000000000000000}"},
      {"f16[2]", "{1.5, -0.25}"},
      {"bf16[3]", "{1.5, -3, 0.0078125}"},
      {"f32[2]", "{3.25, -1e-30}"},
      {"f64[1]", "{2.5e-300}"},
      {"c64[2]", "{(1, 2), (-3.5, 0)}"},
      {"c128[1]", "{(1e100, -1)}"},
      {"f8e4m3fn[2]", "{1.5, -448}"},
      {"f8e5m2[2]", "{0.5, -57344}"},
      {"f8e4m3b11fnuz[1]", "{0.25}"},
      {"f8e5m2fnuz[1]", "{-2}"},
      {"f8e4m3fnuz[1]", "{3}"},
      {"f8e4m3[1]", "{-0.75}"},
      {"f8e3m4[1]", "{1.25}"},
      {"f8e8m0fnu[1]", "{4}"},
      {"f4e2m1fn[2]", "{-6, 0.5}"},
      {"f6e2m3fn[2]", "{-7.5, 0.125}"},
      {"f6e3m2fn[2]", "{28, -0.0625}"},
  };
  for (const auto& [shape, value] : cases) {
    const Literal literal = Parse(shape, value);
    absl::StatusOr<Literal> back = LiteralFromProto(LiteralToProto(literal));
    ASSERT_TRUE(back.ok()) << shape << ": " << back.status();
    EXPECT_EQ(*back, literal) << shape << ": " << back->ToString() << " vs " << literal.ToString();
    EXPECT_EQ(back->ToStringWithoutShape(), literal.ToStringWithoutShape()) << shape;
  }
}

TEST(HloProtoLiteral, ValuesLandInXlasFields) {
  hlo_proto::LiteralProto f32 = LiteralToProto(Parse("f32[2]", "{3.25, -1}"));
  ASSERT_EQ(f32.f32s_size(), 2);
  EXPECT_EQ(f32.f32s(0), 3.25f);
  hlo_proto::LiteralProto bf16 = LiteralToProto(Parse("bf16[1]", "{1}"));
  EXPECT_EQ(bf16.bf16s(), std::string("\x80\x3f", 2));  // 0x3F80 little-endian
  hlo_proto::LiteralProto c64 = LiteralToProto(Parse("c64[1]", "{(1, 2)}"));
  ASSERT_EQ(c64.c64s_size(), 2);
  EXPECT_EQ(c64.c64s(1), 2.0f);
  hlo_proto::LiteralProto s4 = LiteralToProto(Parse("s4[2]", "{-1, 7}"));
  EXPECT_EQ(s4.s4s().size(), 2u);  // one element per byte
  hlo_proto::LiteralProto pred = LiteralToProto(Parse("pred[2]", "{false, true}"));
  ASSERT_EQ(pred.preds_size(), 2);
  EXPECT_TRUE(pred.preds(1));
}

TEST(HloProtoLiteral, TuplesRoundTrip) {
  const Literal tuple = Literal::MakeTupleOwned(Parse("s32[2]", "{1, 2}"),
                                                Literal::MakeTupleOwned(Parse("f32[]", "7.5")));
  hlo_proto::LiteralProto proto = LiteralToProto(tuple);
  ASSERT_EQ(proto.tuple_literals_size(), 2);
  EXPECT_EQ(proto.tuple_literals(1).tuple_literals(0).f32s(0), 7.5f);
  absl::StatusOr<Literal> back = LiteralFromProto(proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, tuple);
}

TEST(HloProtoLiteral, CountsThatDoNotMatchTheShapeAreErrors) {
  hlo_proto::LiteralProto proto = LiteralToProto(Parse("f32[3]", "{1, 2, 3}"));
  proto.mutable_f32s()->RemoveLast();
  absl::StatusOr<Literal> short_floats = LiteralFromProto(proto);
  ASSERT_FALSE(short_floats.ok());
  EXPECT_NE(short_floats.status().message().find("2 values instead of 3"), std::string::npos)
      << short_floats.status();
  hlo_proto::LiteralProto bytes = LiteralToProto(Parse("bf16[2]", "{1, 2}"));
  bytes.mutable_bf16s()->pop_back();
  EXPECT_NE(LiteralFromProto(bytes).status().message().find("3 bytes instead of 4"), std::string::npos);
}

}  // namespace
}  // namespace systolic
