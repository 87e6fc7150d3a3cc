#include "core/compiler/priority_fusion.h"

#include "core/compiler/hlo_dce.h"
#include "core/compiler/roofline_cost_model.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

const HloInstruction* Root(const HloModule& m) { return m.entry_computation()->root_instruction(); }

bool Fuse(HloModule* module, const CostModel& model, FusionOptions options = {}) {
  PriorityFusion fusion(&model, options);
  bool changed = testing::RunPass(fusion, module);
  HloDCE dce;
  testing::RunPass(dce, module);
  return changed;
}

TEST(PriorityFusionTest, ElementwiseChainWithBroadcastsBecomesOneLoopFusion) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[64,128], b: f32[128]) -> f32[64,128] {
  %x = f32[64,128] parameter(0)
  %b = f32[128] parameter(1)
  %bb = f32[64,128] broadcast(%b), dimensions={1}
  %a = f32[64,128] add(%x, %bb)
  %zero = f32[] constant(0)
  %zeros = f32[64,128] broadcast(%zero), dimensions={}
  %r = f32[64,128] maximum(%a, %zeros)
  %s = f32[64,128] slice(%r), slice={[0:64], [0:128]}
  ROOT %n = f32[64,128] negate(%s)
}
)");
  RooflineCostModel model;
  ASSERT_TRUE(Fuse(module.get(), model));
  const HloInstruction* root = Root(*module);
  ASSERT_EQ(root->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(root->fusion_kind(), FusionKind::kLoop);
  EXPECT_EQ(root->operand_count(), 2) << "reads x and b, nothing else";
  EXPECT_EQ(module->entry_computation()->instruction_count(), 3);
  // 2 parameters, the 5 fused ops, and a copy of the zero broadcast.
  EXPECT_EQ(root->fused_instructions_computation()->instruction_count(), 9)
      << module->ToString();
}

// A fusion carries its output's metadata, as XLA's do: the graph view
// groups it under that op's layer.
TEST(PriorityFusionTest, AFusionCarriesItsOutputsMetadata) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[64,128]) -> f32[64,128] {
  %x = f32[64,128] parameter(0)
  %e = f32[64,128] exponential(%x), metadata={op_name="jit(step)/Model/mlp/exp"}
  ROOT %n = f32[64,128] negate(%e), metadata={op_name="jit(step)/Model/mlp/neg"}
}
)");
  RooflineCostModel model;
  ASSERT_TRUE(Fuse(module.get(), model));
  const HloInstruction* root = Root(*module);
  ASSERT_EQ(root->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(root->metadata().op_name, "jit(step)/Model/mlp/neg");
}

TEST(PriorityFusionTest, ProducersFuseIntoAReductionsInput) {
  auto module = testing::ParseModule(R"(
HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[64,128], y: f32[64,128]) -> f32[64] {
  %x = f32[64,128] parameter(0)
  %y = f32[64,128] parameter(1)
  %m = f32[64,128] multiply(%x, %y)
  %e = f32[64,128] exponential(%m)
  %zero = f32[] constant(0)
  ROOT %r = f32[64] reduce(%e, %zero), dimensions={1}, to_apply=%add
}
)");
  RooflineCostModel model;
  ASSERT_TRUE(Fuse(module.get(), model));
  const HloInstruction* root = Root(*module);
  ASSERT_EQ(root->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(root->fusion_kind(), FusionKind::kInput);
  EXPECT_EQ(root->fused_expression_root()->opcode(), HloOpcode::kReduce);
  EXPECT_EQ(root->operand_count(), 2);
}

TEST(PriorityFusionTest, DotAbsorbsItsEpilogueIntoAnOutputFusion) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[256,256], w: f32[256,256], b: f32[256]) -> bf16[256,256] {
  %x = f32[256,256] parameter(0)
  %w = f32[256,256] parameter(1)
  %b = f32[256] parameter(2)
  %d = f32[256,256] dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %bb = f32[256,256] broadcast(%b), dimensions={1}
  %a = f32[256,256] add(%d, %bb)
  %zero = f32[] constant(0)
  %zeros = f32[256,256] broadcast(%zero), dimensions={}
  %relu = f32[256,256] maximum(%a, %zeros)
  ROOT %c = bf16[256,256] convert(%relu)
}
)");
  RooflineCostModel model;
  ASSERT_TRUE(Fuse(module.get(), model));
  const HloInstruction* root = Root(*module);
  ASSERT_EQ(root->opcode(), HloOpcode::kFusion);
  EXPECT_EQ(root->fusion_kind(), FusionKind::kOutput);
  const HloInstruction* fused_root = root->fused_expression_root();
  EXPECT_EQ(fused_root->opcode(), HloOpcode::kConvert);
  const HloInstruction* dot = nullptr;
  for (const HloInstruction* i : root->fused_instructions_computation()->instructions()) {
    if (i->opcode() == HloOpcode::kDot) dot = i;
  }
  ASSERT_NE(dot, nullptr);
  // The dot's operands come straight from memory.
  EXPECT_EQ(dot->operand(0)->opcode(), HloOpcode::kParameter);
  EXPECT_EQ(dot->operand(1)->opcode(), HloOpcode::kParameter);
  EXPECT_EQ(module->entry_computation()->instruction_count(), 4);
}

TEST(PriorityFusionTest, NeverDuplicatesAnExpensiveProducer) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[64,128]) -> (f32[64,128], f32[64,128]) {
  %x = f32[64,128] parameter(0)
  %e = f32[64,128] exponential(%x)
  %n = f32[64,128] negate(%e)
  %a = f32[64,128] abs(%e)
  ROOT %t = (f32[64,128], f32[64,128]) tuple(%n, %a)
}
)");
  RooflineCostModel model;
  Fuse(module.get(), model);
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kExp), 1) << module->ToString();
}

TEST(PriorityFusionTest, DuplicatesACheapProducerIntoItsConsumers) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[64,128], y: f32[64,128]) -> (f32[64,128], f32[64,128]) {
  %x = f32[64,128] parameter(0)
  %y = f32[64,128] parameter(1)
  %s = f32[64,128] subtract(%x, %y)
  %n = f32[64,128] exponential(%s)
  %a = f32[64,128] tanh(%s)
  ROOT %t = (f32[64,128], f32[64,128]) tuple(%n, %a)
}
)");
  RooflineCostModel model;
  ASSERT_TRUE(Fuse(module.get(), model));
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kSubtract), 2) << module->ToString();
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kFusion), 2);
  // Nothing left outside the two kernels but the parameters and the tuple.
  EXPECT_EQ(module->entry_computation()->instruction_count(), 5);
}

TEST(PriorityFusionTest, RespectsTheOnChipMemoryBudget) {
  const char* text = R"(
HloModule m

ENTRY %main (x: f32[512,1024], y: f32[512,1024], z: f32[512,1024]) -> f32[512,1024] {
  %x = f32[512,1024] parameter(0)
  %y = f32[512,1024] parameter(1)
  %z = f32[512,1024] parameter(2)
  %a = f32[512,1024] add(%x, %y)
  ROOT %m = f32[512,1024] multiply(%a, %z)
}
)";
  RooflineParameters tight;
  tight.on_chip_memory_bytes = 4 * tight.stream_tile_bytes;  // two streams only
  RooflineCostModel small(tight);
  auto module = testing::ParseModule(text);
  EXPECT_FALSE(Fuse(module.get(), small));
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kFusion), 0);
  RooflineCostModel roomy;
  module = testing::ParseModule(text);
  EXPECT_TRUE(Fuse(module.get(), roomy));
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kFusion), 1);
}

TEST(PriorityFusionTest, RespectsTheKernelSizeLimit) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[1024]) -> f32[1024] {
  %x = f32[1024] parameter(0)
  %a = f32[1024] negate(%x)
  %b = f32[1024] abs(%a)
  %c = f32[1024] negate(%b)
  %d = f32[1024] abs(%c)
  %e = f32[1024] negate(%d)
  ROOT %f = f32[1024] abs(%e)
}
)");
  RooflineCostModel model;
  FusionOptions options;
  options.max_fused_instructions = 3;
  ASSERT_TRUE(Fuse(module.get(), model, options));
  for (const HloInstruction* instr : module->entry_computation()->instructions()) {
    if (instr->opcode() != HloOpcode::kFusion) continue;
    EXPECT_LE(instr->fused_instructions_computation()->instruction_count() -
                  instr->fused_instructions_computation()->num_parameters(),
              3);
  }
}

TEST(PriorityFusionTest, DecisionsAreLoggedWithTheTimeSaved) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[1024]) -> f32[1024] {
  %x = f32[1024] parameter(0)
  %a = f32[1024] negate(%x)
  ROOT %b = f32[1024] abs(%a)
}
)");
  RooflineCostModel model;
  PriorityFusion fusion(&model);
  ASSERT_TRUE(testing::RunPass(fusion, module.get()));
  ASSERT_EQ(fusion.run_log().decisions.size(), 1u);
  EXPECT_NE(fusion.run_log().decisions[0].find("fused %a into %b: saves"), std::string::npos)
      << fusion.run_log().decisions[0];
}

}  // namespace
}  // namespace systolic
