// The unit each instruction runs on, as the graph colours it.
#include "core/analysis/execution_unit.h"

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

TEST(ExecutionUnit, OpcodesByUnit) {
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kDot), ExecutionUnit::kMxu);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kConvolution), ExecutionUnit::kMxu);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kAdd), ExecutionUnit::kVector);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kExp), ExecutionUnit::kVector);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kReduce), ExecutionUnit::kVector);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kTranspose), ExecutionUnit::kDataMovement);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kCopyStart), ExecutionUnit::kDataMovement);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kAllReduce), ExecutionUnit::kCollective);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kCollectivePermuteDone), ExecutionUnit::kCollective);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kWhile), ExecutionUnit::kControlFlow);
  EXPECT_EQ(ExecutionUnitOfOpcode(HloOpcode::kCustomCall), ExecutionUnit::kOther);
  EXPECT_EQ(ExecutionUnitName(ExecutionUnit::kMxu), "MXU");
  EXPECT_EQ(ExecutionUnitName(ExecutionUnit::kDataMovement), "data movement");
}

TEST(ExecutionUnit, FusionsRunWhereTheirHeaviestMemberRuns) {
  constexpr char kText[] = R"(
HloModule units

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %a, f32[] %b)
}

%fused_dot (p0: f32[8,16], p1: f32[16,4]) -> f32[8,4] {
  %p0 = f32[8,16]{1,0} parameter(0)
  %p1 = f32[16,4]{1,0} parameter(1)
  %d = f32[8,4]{1,0} dot(f32[8,16]{1,0} %p0, f32[16,4]{1,0} %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %n = f32[8,4]{1,0} negate(f32[8,4]{1,0} %d)
}

%fused_ew (q0: f32[8,4]) -> f32[4,8] {
  %q0 = f32[8,4]{1,0} parameter(0)
  %e = f32[8,4]{1,0} exponential(f32[8,4]{1,0} %q0)
  ROOT %t = f32[4,8]{1,0} transpose(f32[8,4]{1,0} %e), dimensions={1,0}
}

%fused_copy (r0: f32[4,8]) -> f32[8,4] {
  %r0 = f32[4,8]{1,0} parameter(0)
  ROOT %t2 = f32[8,4]{1,0} transpose(f32[4,8]{1,0} %r0), dimensions={1,0}
}

ENTRY %main (x: f32[8,16], w: f32[16,4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0)
  %w = f32[16,4]{1,0} parameter(1)
  %f0 = f32[8,4]{1,0} fusion(f32[8,16]{1,0} %x, f32[16,4]{1,0} %w), kind=kOutput, calls=%fused_dot
  %f1 = f32[4,8]{1,0} fusion(f32[8,4]{1,0} %f0), kind=kLoop, calls=%fused_ew
  %f2 = f32[8,4]{1,0} fusion(f32[4,8]{1,0} %f1), kind=kLoop, calls=%fused_copy
  ROOT %ar = f32[8,4]{1,0} all-reduce(f32[8,4]{1,0} %f2), replica_groups={}, to_apply=%sum
}
)";
  auto module = ParseAndReturnUnverifiedModule(kText);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation* entry = (*module)->entry_computation();
  auto unit_of = [&](const char* name) {
    for (const HloInstruction* i : entry->instructions()) {
      if (i->name() == name) return ExecutionUnitOf(*i);
    }
    return ExecutionUnit::kOther;
  };
  EXPECT_EQ(unit_of("f0"), ExecutionUnit::kMxu);
  EXPECT_EQ(unit_of("f1"), ExecutionUnit::kVector);
  EXPECT_EQ(unit_of("f2"), ExecutionUnit::kDataMovement);
  // The reducer of an all-reduce does not make it a vector op.
  EXPECT_EQ(unit_of("ar"), ExecutionUnit::kCollective);
  EXPECT_EQ(unit_of("x"), ExecutionUnit::kDataMovement);
  EXPECT_EQ(DominantExecutionUnit(*entry), ExecutionUnit::kMxu);
  EXPECT_LT(ExecutionUnitWeight(ExecutionUnit::kMxu), ExecutionUnitWeight(ExecutionUnit::kVector));
}

}  // namespace
}  // namespace systolic::analysis
