#include "core/compiler/layout_assignment.h"

#include "core/compiler/layout_util.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

std::vector<int64_t> MinorToMajor(const HloInstruction* instr) {
  return instr->shape().layout().minor_to_major();
}

TEST(LayoutAssignmentTest, DotOperandsGetTheContractingDimensionMinor) {
  auto module = testing::ParseModule(R"(
HloModule m, entry_computation_layout={(f32[32,64]{1,0}, f32[64,128]{1,0})->f32[32,128]{1,0}}

ENTRY %main (x: f32[32,64], w: f32[64,128]) -> f32[32,128] {
  %x = f32[32,64]{1,0} parameter(0)
  %w = f32[64,128]{1,0} parameter(1)
  ROOT %d = f32[32,128]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  LayoutAssignment assignment;
  ASSERT_TRUE(testing::RunPass(assignment, module.get()));
  const HloInstruction* dot = module->entry_computation()->root_instruction();
  // x already streams along K; w is a parameter (its layout is fixed), so a
  // copy transposes it.
  EXPECT_EQ(dot->operand(0)->name(), "x");
  ASSERT_EQ(dot->operand(1)->opcode(), HloOpcode::kCopy);
  EXPECT_EQ(MinorToMajor(dot->operand(1)), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(dot->operand(1)->shape().layout().tiles().front().dimensions,
            (std::vector<int64_t>{8, 128}));
  // The parameters and the result keep the entry layout.
  EXPECT_EQ(MinorToMajor(testing::FindInstruction(*module, "w")), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(testing::FindInstruction(*module, "w")->shape().layout().tiles().empty());
  EXPECT_EQ(MinorToMajor(dot), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(assignment.run_log().decisions.size(), 1u);
}

TEST(LayoutAssignmentTest, ATransposeFeedingADotBecomesALayoutChange) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[32,64], w: f32[128,64]) -> f32[32,128] {
  %x = f32[32,64]{1,0} parameter(0)
  %w = f32[128,64]{1,0} parameter(1)
  %t = f32[64,128]{1,0} transpose(%w), dimensions={1,0}
  ROOT %d = f32[32,128]{1,0} dot(%x, %t), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  LayoutAssignment assignment;
  ASSERT_TRUE(testing::RunPass(assignment, module.get()));
  const HloInstruction* t = testing::FindInstruction(*module, "t");
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kCopy), 0) << "no copy where none is needed";
  EXPECT_EQ(MinorToMajor(t), (std::vector<int64_t>{0, 1}));
  // t's bytes are w's bytes: the transpose moves no data.
  EXPECT_TRUE(TransposeIsBitcast(*t));
  ASSERT_EQ(assignment.run_log().decisions.size(), 1u);
  EXPECT_NE(assignment.run_log().decisions[0].find("moves no data"), std::string::npos);
}

TEST(LayoutAssignmentTest, ElementwiseResultsFollowTheirOperandsAndAreTiled) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[16,256], y: bf16[16,256], v: f32[300]) -> (bf16[16,256], f32[300], f32[16,256]) {
  %x = f32[16,256]{0,1} parameter(0)
  %y = bf16[16,256]{1,0} parameter(1)
  %v = f32[300]{0} parameter(2)
  %n = f32[16,256]{1,0} negate(%x)
  %s = f32[16,256]{1,0} sine(%n)
  %c = bf16[16,256]{1,0} convert(%s)
  %a = bf16[16,256]{1,0} add(%c, %y)
  %e = f32[300]{0} exponential(%v)
  %o = f32[16,256]{1,0} cosine(%n)
  ROOT %t = (bf16[16,256]{1,0}, f32[300]{0}, f32[16,256]{1,0}) tuple(%a, %e, %o)
}
)");
  LayoutAssignment assignment;
  ASSERT_TRUE(testing::RunPass(assignment, module.get()));
  EXPECT_EQ(MinorToMajor(testing::FindInstruction(*module, "n")), (std::vector<int64_t>{0, 1}))
      << "follows x";
  EXPECT_EQ(MinorToMajor(testing::FindInstruction(*module, "s")), (std::vector<int64_t>{0, 1}));
  const HloInstruction* c = testing::FindInstruction(*module, "c");
  EXPECT_EQ(MinorToMajor(c), (std::vector<int64_t>{0, 1}));
  ASSERT_EQ(c->shape().layout().tiles().size(), 2u) << "bf16 packs two values per word";
  EXPECT_EQ(c->shape().layout().tiles()[0].dimensions, (std::vector<int64_t>{16, 128}));
  EXPECT_EQ(c->shape().layout().tiles()[1].dimensions, (std::vector<int64_t>{2, 1}));
  // a's operands disagree: row-major.
  EXPECT_EQ(MinorToMajor(testing::FindInstruction(*module, "a")), (std::vector<int64_t>{1, 0}));
  const HloInstruction* n = testing::FindInstruction(*module, "n");
  EXPECT_EQ(n->shape().layout().tiles()[0].dimensions, (std::vector<int64_t>{8, 128}));
  const HloInstruction* e = testing::FindInstruction(*module, "e");
  // The result keeps the declared layout: o writes {1,0} although n is {0,1}.
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_EQ(root->shape().tuple_shapes(2).layout().minor_to_major(), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(root->shape().tuple_shapes(1).layout().tiles().empty());
  EXPECT_EQ(e, root->operand(1)) << "e writes the result layout itself, no copy";
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kCopy), 0);
  EXPECT_TRUE(module->has_entry_computation_layout());
}

TEST(LayoutAssignmentTest, LoopsKeepOneLayoutForTheirState) {
  auto module = testing::ParseModule(R"(
HloModule m

%cond (s: (s32[], f32[8,128])) -> pred[] {
  %s = (s32[], f32[8,128]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[8,128])) -> (s32[], f32[8,128]) {
  %s = (s32[], f32[8,128]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %v = f32[8,128] get-tuple-element(%s), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %w = f32[8,128] exponential(%v)
  ROOT %t = (s32[], f32[8,128]) tuple(%j, %w)
}

ENTRY %main (x: f32[8,128]) -> f32[8,128] {
  %x = f32[8,128]{0,1} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[8,128]) tuple(%zero, %x)
  %loop = (s32[], f32[8,128]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[8,128] get-tuple-element(%loop), index=1
}
)");
  LayoutAssignment assignment;
  ASSERT_TRUE(testing::RunPass(assignment, module.get()));
  const HloInstruction* loop = testing::FindInstruction(*module, "loop");
  const HloComputation* body = loop->while_body();
  EXPECT_TRUE(SameLayouts(loop->shape(), body->root_instruction()->shape()));
  EXPECT_TRUE(SameLayouts(loop->shape(), body->parameter_instruction(0)->shape()));
  EXPECT_TRUE(SameLayouts(loop->shape(), loop->operand(0)->shape()));
  // x comes in as {0,1}: a copy brings it to the loop's row-major layout.
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kCopy), 2) << module->ToString();
}

}  // namespace
}  // namespace systolic
