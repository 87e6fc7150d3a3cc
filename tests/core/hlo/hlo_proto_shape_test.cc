// Shapes and layouts to and from XLA's ShapeProto: field values on the wire
// are XLA's, and every shape the IR can hold comes back equal.
#include "core/hlo/hlo_proto_shape.h"

#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

Shape Parse(absl::string_view text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return shape.ok() ? *shape : Shape();
}

TEST(HloProtoShape, ElementTypesUseXlasNumbers) {
  EXPECT_EQ(PrimitiveTypeToProto(F32), 11);
  EXPECT_EQ(PrimitiveTypeToProto(BF16), 16);
  EXPECT_EQ(PrimitiveTypeToProto(S4), 21);
  EXPECT_EQ(PrimitiveTypeToProto(F8E4M3FN), 20);
  EXPECT_EQ(PrimitiveTypeToProto(F4E2M1FN), 32);
  EXPECT_EQ(PrimitiveTypeToProto(F6E2M3FN), 30);
  EXPECT_EQ(PrimitiveTypeToProto(F6E3M2FN), 31);
  EXPECT_EQ(PrimitiveTypeToProto(TUPLE), 13);
  EXPECT_EQ(PrimitiveTypeToProto(TOKEN), 17);
  for (int t = PRIMITIVE_TYPE_INVALID; t < PRIMITIVE_TYPE_COUNT; ++t) {
    const PrimitiveType type = PrimitiveType(t);
    absl::StatusOr<PrimitiveType> back = PrimitiveTypeFromProto(PrimitiveTypeToProto(type));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, type) << primitive_util::LowercasePrimitiveTypeName(type);
  }
  EXPECT_FALSE(PrimitiveTypeFromProto(999).ok());
}

TEST(HloProtoShape, ArrayWithTiledLayoutAndMemorySpace) {
  const Shape shape = Parse("bf16[8,256]{1,0:T(8,128)(2,1)E(16)S(1)}");
  hlo_proto::ShapeProto proto = ShapeToProto(shape);
  EXPECT_EQ(proto.element_type(), hlo_proto::BF16);
  ASSERT_EQ(proto.dimensions_size(), 2);
  EXPECT_EQ(proto.dimensions(1), 256);
  ASSERT_EQ(proto.layout().minor_to_major_size(), 2);
  EXPECT_EQ(proto.layout().minor_to_major(0), 1);
  ASSERT_EQ(proto.layout().tiles_size(), 2);
  EXPECT_EQ(proto.layout().tiles(0).dimensions(1), 128);
  EXPECT_EQ(proto.layout().element_size_in_bits(), 16);
  EXPECT_EQ(proto.layout().memory_space(), 1);
  absl::StatusOr<Shape> back = ShapeFromProto(proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToString(/*print_layout=*/true), shape.ToString(true));
  EXPECT_EQ(*back, shape);
}

TEST(HloProtoShape, NestedTuplesTokensAndDynamicDimensions) {
  for (absl::string_view text : {"(f32[2,3]{0,1}, (s32[], token[]), pred[<=4]{0})",
                                 "f32[<=8,3]{1,0}", "f32[?,2]", "()", "u4[16]{0:E(4)}"}) {
    const Shape shape = Parse(text);
    absl::StatusOr<Shape> back = ShapeFromProto(ShapeToProto(shape));
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(back->ToString(true), shape.ToString(true)) << text;
  }
  hlo_proto::ShapeProto tuple = ShapeToProto(Parse("(f32[2], (s32[], token[]))"));
  EXPECT_EQ(tuple.element_type(), hlo_proto::TUPLE);
  ASSERT_EQ(tuple.tuple_shapes_size(), 2);
  EXPECT_EQ(tuple.tuple_shapes(1).tuple_shapes(1).element_type(), hlo_proto::TOKEN);
}

TEST(HloProtoShape, BadShapesAreErrors) {
  hlo_proto::ShapeProto proto;
  proto.set_element_type(hlo_proto::F32);
  proto.add_dimensions(2);
  proto.add_dimensions(3);
  proto.add_is_dynamic_dimension(false);  // one flag for two dimensions
  EXPECT_NE(ShapeFromProto(proto).status().message().find("dynamic-dimension flags"),
            std::string::npos);
  proto.clear_is_dynamic_dimension();
  proto.mutable_layout()->add_minor_to_major(0);  // rank 1 layout on rank 2
  EXPECT_FALSE(ShapeFromProto(proto).ok());
  hlo_proto::ShapeProto invalid;
  EXPECT_FALSE(ShapeFromProto(invalid).ok());
}

}  // namespace
}  // namespace systolic
