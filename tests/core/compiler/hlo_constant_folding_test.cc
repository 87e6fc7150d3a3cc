#include "core/compiler/hlo_constant_folding.h"

#include "core/compiler/hlo_dce.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

TEST(HloConstantFoldingTest, FoldsThroughTheEvaluator) {
  auto module = testing::ParseModule(R"(
HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[3]) -> f32[3] {
  %x = f32[3] parameter(0)
  %c = f32[3] constant({1, 2, 3})
  %two = f32[] constant(2)
  %twos = f32[3] broadcast(%two), dimensions={}
  %m = f32[3] multiply(%c, %twos)
  %e = f32[3] exponential(%m)
  %iota = f32[2,3] iota(), iota_dimension=1
  %sum = f32[3] reduce(%iota, %two), dimensions={0}, to_apply=%add
  %k = f32[3] add(%e, %sum)
  ROOT %r = f32[3] add(%x, %k)
}
)");
  HloConstantFolding folding;
  ASSERT_TRUE(testing::RunPass(folding, module.get()));
  HloDCE dce;
  testing::RunPass(dce, module.get());
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_EQ(root->operand(1)->opcode(), HloOpcode::kConstant);
  const Literal& k = root->operand(1)->literal();
  // exp(2*i) + (2 + 2*j) with iota along dimension 1: j = i - 1.
  EXPECT_FLOAT_EQ(k.Get<float>({0}), std::exp(2.0f) + 2.0f);
  EXPECT_FLOAT_EQ(k.Get<float>({1}), std::exp(4.0f) + 4.0f);
  EXPECT_FLOAT_EQ(k.Get<float>({2}), std::exp(6.0f) + 6.0f);
  // The folded constant is made of everything it replaced.
  EXPECT_GE(root->operand(1)->provenance().size(), 5u);
}

TEST(HloConstantFoldingTest, LeavesBroadcastsAndLargeResultsAlone) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main () -> (f32[64,1024], f32[4]) {
  %one = f32[] constant(1)
  %big = f32[64,1024] broadcast(%one), dimensions={}
  %neg = f32[64,1024] negate(%big)
  %small = f32[4] broadcast(%one), dimensions={}
  ROOT %t = (f32[64,1024], f32[4]) tuple(%neg, %small)
}
)");
  HloConstantFoldingOptions options;
  options.max_result_bytes = 1024;
  HloConstantFolding folding(options);
  EXPECT_FALSE(testing::RunPass(folding, module.get()));
  EXPECT_EQ(testing::RootExpr(*module), "tuple(negate(broadcast(1)), broadcast(1))");
}

TEST(HloConstantFoldingTest, NeverRunsRandomNumbers) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main () -> f32[4] {
  %lo = f32[] constant(0)
  %hi = f32[] constant(1)
  ROOT %r = f32[4] rng(%lo, %hi), distribution=rng_uniform
}
)");
  HloConstantFolding folding;
  EXPECT_FALSE(testing::RunPass(folding, module.get()));
}

}  // namespace
}  // namespace systolic
