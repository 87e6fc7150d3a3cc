#include "core/runtime/buffer_type.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;

TEST(BufferType, EveryArrayTypeAndTokenRoundTrips) {
  std::set<int> seen;
  for (int t = PRED; t <= TOKEN; ++t) {
    const PrimitiveType type = PrimitiveType(t);
    SYSTOLIC_Buffer_Type abi = BufferTypeOf(type);
    ASSERT_NE(abi, SYSTOLIC_Buffer_Type_INVALID)
        << primitive_util::LowercasePrimitiveTypeName(type);
    EXPECT_TRUE(seen.insert(int(abi)).second) << "two types share ABI value " << int(abi);
    absl::StatusOr<PrimitiveType> back = PrimitiveTypeOf(abi);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, type);
  }
  EXPECT_EQ(BufferTypeOf(TUPLE), SYSTOLIC_Buffer_Type_INVALID);
}

// Published values never move; the MX float6 types came after TOKEN.
TEST(BufferType, PublishedValuesAreFixed) {
  EXPECT_EQ(int(BufferTypeOf(PRED)), 1);
  EXPECT_EQ(int(BufferTypeOf(F32)), 16);
  EXPECT_EQ(int(BufferTypeOf(F8E8M0FNU)), 27);
  EXPECT_EQ(int(BufferTypeOf(F4E2M1FN)), 28);
  EXPECT_EQ(int(BufferTypeOf(TOKEN)), 29);
  EXPECT_EQ(int(BufferTypeOf(F6E2M3FN)), 30);
  EXPECT_EQ(int(BufferTypeOf(F6E3M2FN)), 31);
}

TEST(BufferType, UnknownValuesAreErrors) {
  absl::StatusOr<PrimitiveType> unknown = PrimitiveTypeOf(SYSTOLIC_Buffer_Type(99));
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("element type 99"));
  EXPECT_FALSE(PrimitiveTypeOf(SYSTOLIC_Buffer_Type_INVALID).ok());
  int64_t dims[] = {2, 3};
  absl::StatusOr<Shape> shape = ShapeOfBuffer(SYSTOLIC_Buffer_Type_F6E3M2FN, dims, 2);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, Shape(F6E3M2FN, {2, 3}));
  EXPECT_TRUE(ShapeOfBuffer(SYSTOLIC_Buffer_Type_TOKEN, nullptr, 0)->IsToken());
}

}  // namespace
}  // namespace systolic::runtime
