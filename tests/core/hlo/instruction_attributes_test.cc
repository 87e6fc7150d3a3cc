// Attributes kept out of line (sharding, metadata, the rare opcode ones):
// absent and set are told apart, copies are deep, and an empty metadata
// equals none; the accessors of one opcode's attributes check it.
#include <memory>

#include "core/hlo/hlo_instruction.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

std::unique_ptr<HloInstruction> Parameter() {
  return HloInstruction::CreateParameter(0, Shape(F32, {4}), "p");
}

TEST(InstructionAttributes, NoShardingDiffersFromReplicated) {
  auto plain = Parameter();
  auto replicated = Parameter();
  replicated->set_sharding(HloSharding::Replicate());
  EXPECT_FALSE(plain->has_sharding());
  EXPECT_TRUE(replicated->has_sharding());
  EXPECT_FALSE(plain->SameAttributesAs(*replicated));
  replicated->clear_sharding();
  EXPECT_TRUE(plain->SameAttributesAs(*replicated));
}

TEST(InstructionAttributes, EmptyMetadataEqualsNone) {
  auto plain = Parameter();
  auto touched = Parameter();
  touched->mutable_metadata();  // allocates, sets nothing
  EXPECT_TRUE(touched->metadata().empty());
  EXPECT_TRUE(plain->SameAttributesAs(*touched));
  touched->mutable_metadata()->op_name = "jit(f)/add";
  EXPECT_FALSE(plain->SameAttributesAs(*touched));
}

TEST(InstructionAttributes, ClonesCopyOutOfLineAttributesDeeply) {
  auto original = Parameter();
  original->set_sharding(HloSharding::Replicate());
  original->mutable_metadata()->op_name = "jit(f)/p";
  std::unique_ptr<HloInstruction> copy = original->CloneWithNewOperands(original->shape(), {});
  ASSERT_TRUE(copy->has_sharding());
  EXPECT_EQ(copy->metadata().op_name, "jit(f)/p");
  original->mutable_metadata()->op_name = "changed";
  original->clear_sharding();
  EXPECT_EQ(copy->metadata().op_name, "jit(f)/p");
  EXPECT_TRUE(copy->has_sharding());
}

// Asking an instruction for another opcode's attribute or computation is a
// bug the checked builds stop at, naming the accessor and the instruction.
TEST(InstructionAttributesDeathTest, AccessorsOfAnotherOpcodeStop) {
#ifdef SYSTOLIC_CHECK_HLO_ACCESSORS
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto p = Parameter();
  EXPECT_EQ(p->parameter_number(), 0);
  EXPECT_DEATH((void)p->while_body(), "while_body\\(\\) asked of parameter %p");
  EXPECT_DEATH((void)p->k(), "k\\(\\) asked of parameter");
  EXPECT_DEATH((void)p->lower(), "lower\\(\\) asked of parameter");
  EXPECT_DEATH((void)p->delta(), "delta\\(\\) asked of parameter");
  EXPECT_DEATH((void)p->fusion_kind(), "fusion_kind\\(\\) asked of parameter");
  EXPECT_DEATH((void)p->tuple_index(), "tuple_index\\(\\) asked of parameter");
#else
  GTEST_SKIP() << "accessors are checked only with SYSTOLIC_CHECK_HLO_ACCESSORS";
#endif
}

}  // namespace
}  // namespace systolic
