#include "core/compiler/tuple_simplifier.h"

#include "core/compiler/hlo_dce.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

TEST(TupleSimplifierTest, ElementOfATupleIsTheElement) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[4], y: s32[]) -> s32[] {
  %x = f32[4] parameter(0)
  %y = s32[] parameter(1)
  %t = (f32[4], s32[]) tuple(%x, %y)
  ROOT %g = s32[] get-tuple-element(%t), index=1
}
)");
  TupleSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  EXPECT_EQ(testing::RootExpr(*module), "y");
}

TEST(TupleSimplifierTest, ATupleRebuiltFromItsElementsIsTheTuple) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (p: (f32[4], s32[])) -> (f32[4], s32[]) {
  %p = (f32[4], s32[]) parameter(0)
  %a = f32[4] get-tuple-element(%p), index=0
  %b = s32[] get-tuple-element(%p), index=1
  ROOT %t = (f32[4], s32[]) tuple(%a, %b)
}
)");
  TupleSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  EXPECT_EQ(testing::RootExpr(*module), "p");
}

TEST(TupleSimplifierTest, LeavesPermutedTuplesAlone) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (p: (f32[4], f32[4])) -> (f32[4], f32[4]) {
  %p = (f32[4], f32[4]) parameter(0)
  %a = f32[4] get-tuple-element(%p), index=0
  %b = f32[4] get-tuple-element(%p), index=1
  ROOT %t = (f32[4], f32[4]) tuple(%b, %a)
}
)");
  TupleSimplifier simplifier;
  EXPECT_FALSE(testing::RunPass(simplifier, module.get()));
}

}  // namespace
}  // namespace systolic
