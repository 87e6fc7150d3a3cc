#include "core/hlo/hlo_computation.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

Shape F32(std::vector<int64_t> dims) { return Shape(systolic::F32, dims); }

std::vector<std::string> Names(const HloComputation& c) {
  std::vector<std::string> names;
  for (const HloInstruction* instr : c.instructions()) names.push_back(instr->name());
  return names;
}

HloComputation* AddEntry(HloModule& module) {
  auto owned = std::make_unique<HloComputation>("entry");
  HloComputation* entry = owned.get();
  module.AddEntryComputation(std::move(owned));
  return entry;
}

// Every instruction's index is distinct and below the bound.
void ExpectDenseIndices(const HloComputation& c) {
  std::vector<bool> taken(size_t(c.instruction_index_bound()), false);
  for (const HloInstruction* instr : c.instructions()) {
    const int64_t i = instr->index_in_computation();
    ASSERT_GE(i, 0);
    ASSERT_LT(i, c.instruction_index_bound());
    EXPECT_FALSE(taken[size_t(i)]) << instr->name();
    taken[size_t(i)] = true;
  }
}

TEST(HloComputation, RemovalKeepsInsertionOrderThroughCompaction) {
  HloModule module("m");
  HloComputation* entry = AddEntry(module);
  HloInstruction* p = entry->AddParameter(HloInstruction::CreateParameter(0, F32({2}), "p"));
  // 300 dead negates around one live chain: removing the dead ones empties
  // far more slots than stay live, which forces compactions on the way.
  std::vector<HloInstruction*> dead;
  HloInstruction* live = p;
  for (int i = 0; i < 300; ++i) {
    HloInstruction* d = entry->AddInstruction(
        HloInstruction::CreateUnary(F32({2}), HloOpcode::kNegate, p));
    d->SetName(absl::StrCat("dead", i));
    dead.push_back(d);
    if (i % 100 == 0) {
      live = entry->AddInstruction(HloInstruction::CreateUnary(F32({2}), HloOpcode::kAbs, live));
      live->SetName(absl::StrCat("live", i));
    }
  }
  entry->set_root_instruction(live);
  EXPECT_EQ(entry->instruction_count(), 304);
  for (HloInstruction* d : dead) ASSERT_TRUE(entry->RemoveInstruction(d).ok());

  EXPECT_EQ(entry->instruction_count(), 4);
  EXPECT_EQ(Names(*entry), (std::vector<std::string>{"p", "live0", "live100", "live200"}));
  EXPECT_LT(entry->instruction_index_bound(), 304) << "removed slots were never reclaimed";
  ExpectDenseIndices(*entry);
  EXPECT_EQ(p->user_count(), 1);
  EXPECT_TRUE(VerifyHloModule(module).ok()) << VerifyHloModule(module);
}

TEST(HloComputation, InstructionsAddedAfterTheirUsersStillVerify) {
  // A pass may add an operand after the instruction that uses it; the
  // verifier must not take insertion order for a topological one.
  HloModule module("m");
  HloComputation* entry = AddEntry(module);
  HloInstruction* p = entry->AddParameter(HloInstruction::CreateParameter(0, F32({2}), "p"));
  HloInstruction* neg =
      entry->AddInstruction(HloInstruction::CreateUnary(F32({2}), HloOpcode::kNegate, p));
  HloInstruction* abs =
      entry->AddInstruction(HloInstruction::CreateUnary(F32({2}), HloOpcode::kAbs, p));
  neg->ReplaceOperandWith(0, abs);
  entry->set_root_instruction(neg);
  EXPECT_GT(abs->index_in_computation(), neg->index_in_computation());
  EXPECT_TRUE(VerifyHloModule(module).ok()) << VerifyHloModule(module);
  std::vector<HloInstruction*> order = entry->MakeInstructionPostOrder();
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[1], abs);
  EXPECT_EQ(order[2], neg);
}

}  // namespace
}  // namespace systolic
