#include "core/compiler/hlo_dce.h"

#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

TEST(HloDCETest, RemovesDeadChainsButKeepsSideEffectsAndParameters) {
  auto module = testing::ParseModule(R"(
HloModule m

%unused (a: f32[]) -> f32[] {
  ROOT %a = f32[] parameter(0)
}

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %y = f32[4] parameter(1)
  %dead1 = f32[4] exponential(%x)
  %dead2 = f32[4] add(%dead1, %x)
  %token = token[] after-all()
  ROOT %r = f32[4] negate(%x)
}
)");
  HloDCE dce;
  ASSERT_TRUE(testing::RunPass(dce, module.get()));
  EXPECT_EQ(testing::FindInstruction(*module, "dead1"), nullptr);
  EXPECT_EQ(testing::FindInstruction(*module, "dead2"), nullptr);
  EXPECT_NE(testing::FindInstruction(*module, "y"), nullptr);
  EXPECT_NE(testing::FindInstruction(*module, "token"), nullptr) << "after-all has a side effect";
  EXPECT_EQ(module->computation_count(), 1) << "the uncalled computation goes too";
  EXPECT_EQ(dce.run_log().rewrites.at("removed a dead instruction"), 2);
  EXPECT_FALSE(testing::RunPass(dce, module.get()));
}

}  // namespace
}  // namespace systolic
