// Attributes kept out of line (sharding, metadata, the rare opcode ones):
// absent and set are told apart, copies are deep, and an empty metadata
// equals none.
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

}  // namespace
}  // namespace systolic
