#include "core/compiler/multi_output_fusion.h"

#include "core/compiler/hlo_dce.h"
#include "core/compiler/priority_fusion.h"
#include "core/compiler/roofline_cost_model.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

constexpr char kReducers[] = R"(
HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
)";

void FuseAll(HloModule* module, const CostModel& model) {
  PriorityFusion priority(&model);
  testing::RunPass(priority, module);
  MultiOutputFusion multi(&model);
  testing::RunPass(multi, module);
  HloDCE dce;
  testing::RunPass(dce, module);
}

TEST(MultiOutputFusionTest, SiblingReductionsOfOneValueShareAKernel) {
  auto module = testing::ParseModule(std::string(kReducers) + R"(
ENTRY %main (x: f32[64,1024]) -> (f32[64], f32[64]) {
  %x = f32[64,1024] parameter(0)
  %zero = f32[] constant(0)
  %sum = f32[64] reduce(%x, %zero), dimensions={1}, to_apply=%add
  %sq = f32[64,1024] multiply(%x, %x)
  %sumsq = f32[64] reduce(%sq, %zero), dimensions={1}, to_apply=%add
  ROOT %t = (f32[64], f32[64]) tuple(%sum, %sumsq)
}
)");
  RooflineCostModel model;
  FuseAll(module.get(), model);
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kFusion), 1) << module->ToString();
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_EQ(root->operand(0)->opcode(), HloOpcode::kGetTupleElement);
  const HloInstruction* fusion = root->operand(0)->operand(0);
  ASSERT_EQ(fusion->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(fusion->fusion_kind(), FusionKind::kInput);
  EXPECT_EQ(fusion->fused_expression_root()->opcode(), HloOpcode::kTuple);
  EXPECT_EQ(fusion->operand_count(), 1) << "x is read once";
  EXPECT_EQ(root->operand(1)->operand(0), fusion);
}

TEST(MultiOutputFusionTest, AProducerNeededElsewhereBecomesASecondOutput) {
  auto module = testing::ParseModule(std::string(kReducers) + R"(
ENTRY %main (x: f32[64,1024]) -> (f32[64,1024], f32[64]) {
  %x = f32[64,1024] parameter(0)
  %e = f32[64,1024] exponential(%x)
  %zero = f32[] constant(0)
  %s = f32[64] reduce(%e, %zero), dimensions={1}, to_apply=%add
  ROOT %t = (f32[64,1024], f32[64]) tuple(%e, %s)
}
)");
  RooflineCostModel model;
  FuseAll(module.get(), model);
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kExp), 1);
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kFusion), 1) << module->ToString();
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_EQ(root->operand(0)->opcode(), HloOpcode::kGetTupleElement);
  EXPECT_EQ(root->operand(1)->opcode(), HloOpcode::kGetTupleElement);
  EXPECT_EQ(root->operand(0)->operand(0), root->operand(1)->operand(0));
}

TEST(MultiOutputFusionTest, NeverMergesKernelsConnectedThroughOthers) {
  // sum feeds (through a division outside any kernel) the other reduction:
  // merging them would make a cycle.
  auto module = testing::ParseModule(std::string(kReducers) + R"(
ENTRY %main (x: f32[64,1024]) -> f32[64] {
  %x = f32[64,1024] parameter(0)
  %zero = f32[] constant(0)
  %sum = f32[64] reduce(%x, %zero), dimensions={1}, to_apply=%add
  %sumb = f32[64,1024] broadcast(%sum), dimensions={0}
  %d = f32[64,1024] divide(%x, %sumb)
  ROOT %s2 = f32[64] reduce(%d, %zero), dimensions={1}, to_apply=%add
}
)");
  RooflineCostModel model;
  MultiOutputFusion multi(&model);
  EXPECT_FALSE(testing::RunPass(multi, module.get()));
}

}  // namespace
}  // namespace systolic
