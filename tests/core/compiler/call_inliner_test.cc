#include "core/compiler/call_inliner.h"

#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

TEST(CallInlinerTest, InlinesNestedCallsAndDropsTheCallees) {
  auto module = testing::ParseModule(R"(
HloModule m

%inner (a: f32[4]) -> f32[4] {
  %a = f32[4] parameter(0)
  ROOT %n = f32[4] negate(%a)
}

%outer (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4] parameter(0)
  %b = f32[4] parameter(1)
  %c = f32[4] call(%a), to_apply=%inner
  ROOT %s = f32[4] add(%c, %b)
}

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %y = f32[4] parameter(1)
  %first = f32[4] call(%x, %y), to_apply=%outer
  ROOT %second = f32[4] call(%first, %x), to_apply=%outer
}
)");
  CallInliner inliner;
  ASSERT_TRUE(testing::RunPass(inliner, module.get()));
  EXPECT_EQ(testing::RootExpr(*module), "add(negate(add(negate(x), y)), x)");
  EXPECT_EQ(module->computation_count(), 1);
  EXPECT_EQ(testing::CountOpcode(*module, HloOpcode::kCall), 0);
  // Inlined copies come from the callee's instructions.
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_FALSE(root->provenance().empty());
  bool from_s = false;
  for (const ProvenanceEntry& e : root->provenance()) from_s |= e.name == "s";
  EXPECT_TRUE(from_s);
}

}  // namespace
}  // namespace systolic
