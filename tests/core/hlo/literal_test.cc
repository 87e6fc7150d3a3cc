#include "core/hlo/literal.h"

#include <cmath>

#include "gtest/gtest.h"

namespace systolic {
namespace {

TEST(Literal, CreateAndAccess) {
  Literal l = Literal::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  EXPECT_EQ(l.shape().ToString(), "f32[2,3]");
  EXPECT_EQ(l.Get<float>({1, 2}), 6.0f);
  l.Set<float>({0, 1}, 9.5f);
  EXPECT_EQ(l.data<float>()[1], 9.5f);
  EXPECT_EQ(l.GetAsDouble(4), 5.0);
}

TEST(Literal, PrintsInXlaFormat) {
  EXPECT_EQ(Literal::CreateR2<int32_t>({{1, 2}, {3, 4}}).ToString(), "s32[2,2] {{1, 2}, {3, 4}}");
  EXPECT_EQ(Literal::CreateR0<bool>(true).ToStringWithoutShape(), "true");
  EXPECT_EQ(Literal::CreateR1<float>({0.1f, -2.5f, INFINITY}).ToStringWithoutShape(),
            "{0.1, -2.5, inf}");
  EXPECT_EQ(Literal::CreateR0<bfloat16>(bfloat16(0.1f)).ToStringWithoutShape(), "0.1");
  EXPECT_EQ(Literal::CreateR0<complex64>({1, -2}).ToStringWithoutShape(), "(1, -2)");
  EXPECT_EQ(Literal::CreateR0<uint64_t>(UINT64_MAX).ToStringWithoutShape(),
            "18446744073709551615");
}

TEST(Literal, ConvertFollowsXlaRules) {
  Literal f = Literal::CreateR1<float>({1.5f, -300.0f, NAN, 2.5f});
  auto s8 = f.Convert(S8);
  ASSERT_TRUE(s8.ok());
  EXPECT_EQ(s8->data<int8_t>()[0], 1);
  EXPECT_EQ(s8->data<int8_t>()[1], -128);
  EXPECT_EQ(s8->data<int8_t>()[2], 0);
  auto bf = f.Convert(BF16);
  ASSERT_TRUE(bf.ok());
  EXPECT_EQ(float(bf->data<bfloat16>()[3]), 2.5f);
  EXPECT_FALSE(Literal(Shape::MakeToken()).Convert(F32).ok());
}

TEST(Literal, TuplesAndEquality) {
  Literal t = Literal::MakeTupleOwned(Literal::CreateR0<int32_t>(1), Literal::CreateR1<float>({2, 3}));
  EXPECT_EQ(t.shape().ToString(), "(s32[], f32[2])");
  EXPECT_EQ(t.tuple_element(1).Get<float>({1}), 3.0f);
  Literal copy = t.Clone();
  EXPECT_EQ(copy, t);
  copy.tuple_element(1).Set<float>({0}, 7.0f);
  EXPECT_NE(copy, t);
  EXPECT_EQ(Literal::CreateR0<float>(NAN), Literal::CreateR0<float>(NAN));
  EXPECT_NE(Literal::CreateR0<float>(0.0f), Literal::CreateR0<float>(-0.0f));
}

TEST(Literal, ReshapeAndBroadcast) {
  auto r = Literal::CreateR1<int32_t>({1, 2, 3, 4, 5, 6}).Reshape({2, 3});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Get<int32_t>({1, 0}), 4);
  EXPECT_FALSE(Literal::CreateR1<int32_t>({1, 2}).Reshape({3}).ok());
  auto b = Literal::CreateR0<float>(2.0f).Broadcast(Shape(F32, {2, 2}));
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->IsAllSame());
}

TEST(Literal, LargeLiteralsStartZeroEvenOnReusedMemory) {
  // 8 MiB: large enough for the huge-page buffers, which are reused after
  // being freed; a new literal must not see the old one's bytes.
  const Shape shape(F32, {2048, 1024});
  for (int round = 0; round < 3; ++round) {
    Literal l(shape);
    for (float v : l.data<float>()) ASSERT_EQ(v, 0.0f) << "round " << round;
    std::fill(l.data<float>().begin(), l.data<float>().end(), 1.5f);
  }
  Literal uninitialized = Literal::CreateUninitialized(shape);
  EXPECT_EQ(uninitialized.shape(), shape);
  EXPECT_EQ(uninitialized.size_bytes(), 2048 * 1024 * 4);
  Literal tuple = Literal::CreateUninitialized(Shape::MakeTuple({shape, Shape(S8, {3})}));
  ASSERT_EQ(tuple.tuple_size(), 2);
  EXPECT_EQ(tuple.tuple_element(1).size_bytes(), 3);
}

}  // namespace
}  // namespace systolic
