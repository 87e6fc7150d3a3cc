#include "core/compiler/hlo_cse.h"

#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

TEST(HloCSETest, MergesEqualInstructionsWhateverTheirMetadata) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[4]) -> (f32[4], f32[4], f32[4]) {
  %x = f32[4] parameter(0)
  %c1 = f32[] constant(2)
  %c2 = f32[] constant(2)
  %b1 = f32[4] broadcast(%c1), dimensions={}
  %b2 = f32[4] broadcast(%c2), dimensions={}
  %m1 = f32[4] multiply(%x, %b1), metadata={op_name="first"}
  %m2 = f32[4] multiply(%x, %b2), metadata={op_name="second"}
  %m3 = f32[4] multiply(%b1, %x)
  ROOT %t = (f32[4], f32[4], f32[4]) tuple(%m1, %m2, %m3)
}
)");
  HloCSE cse;
  ASSERT_TRUE(testing::RunPass(cse, module.get()));
  EXPECT_EQ(testing::RootExpr(*module),
            "tuple(multiply(x, broadcast(2)), multiply(x, broadcast(2)), "
            "multiply(broadcast(2), x))");
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_EQ(root->operand(0), root->operand(1));
  EXPECT_NE(root->operand(0), root->operand(2)) << "operand order matters";
  EXPECT_EQ(cse.run_log().rewrites.at("merged an instruction equal to an earlier one"), 3);
  // The survivor is made of both.
  EXPECT_EQ(root->operand(0)->provenance().size(), 2u);
}

TEST(HloCSETest, NeverMergesRandomNumbers) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main () -> (f32[4], f32[4]) {
  %lo = f32[] constant(0)
  %hi = f32[] constant(1)
  %r1 = f32[4] rng(%lo, %hi), distribution=rng_uniform
  %r2 = f32[4] rng(%lo, %hi), distribution=rng_uniform
  ROOT %t = (f32[4], f32[4]) tuple(%r1, %r2)
}
)");
  HloCSE cse;
  testing::RunPass(cse, module.get());
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_NE(root->operand(0), root->operand(1));
}

}  // namespace
}  // namespace systolic
