#include "core/compiler/hlo_memory_scheduler.h"

#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

// Two independent chains: post order runs one to the end, then the other.
// Each chain starts with a big value that shrinks: running the shrinking
// steps first keeps one big value alive at a time.
constexpr char kTwoChains[] = R"(
HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[1024], y: f32[1024]) -> (f32[], f32[]) {
  %x = f32[1024] parameter(0)
  %y = f32[1024] parameter(1)
  %zero = f32[] constant(0)
  %bx = f32[256,1024] broadcast(%x), dimensions={1}
  %by = f32[256,1024] broadcast(%y), dimensions={1}
  %ex = f32[256,1024] exponential(%bx)
  %ey = f32[256,1024] exponential(%by)
  %sx = f32[] reduce(%ex, %zero), dimensions={0,1}, to_apply=%add
  %sy = f32[] reduce(%ey, %zero), dimensions={0,1}, to_apply=%add
  ROOT %t = (f32[], f32[]) tuple(%sx, %sy)
}
)";

TEST(HloMemorySchedulerTest, ListScheduleKeepsPeakMemoryLow) {
  auto module = testing::ParseModule(kTwoChains);
  const HloComputation& entry = *module->entry_computation();
  std::vector<HloInstruction*> list = HloMemoryScheduler::ListSchedule(entry);
  ASSERT_EQ(int64_t(list.size()), entry.instruction_count());
  // Breadth first (both broadcasts, both exps, both reduces) holds four
  // 1 MiB arrays at once; the list schedule never more than two.
  std::vector<HloInstruction*> breadth;
  for (const char* name : {"x", "y", "zero", "bx", "by", "ex", "ey", "sx", "sy", "t"}) {
    breadth.push_back(testing::FindInstruction(*module, name));
  }
  const int64_t mib = 1 << 20;
  EXPECT_GE(HloMemoryScheduler::PeakMemory(entry, breadth), 3 * mib);
  EXPECT_LE(HloMemoryScheduler::PeakMemory(entry, list), 2 * mib + 16 * 1024);
  // Operands always come before their users.
  absl::flat_hash_map<const HloInstruction*, size_t> at;
  for (size_t i = 0; i < list.size(); ++i) at[list[i]] = i;
  for (const HloInstruction* instr : list) {
    for (const HloInstruction* op : instr->operands()) EXPECT_LT(at[op], at[instr]);
  }
}

TEST(HloMemorySchedulerTest, SchedulesEveryComputationAndPrintsInScheduleOrder) {
  auto module = testing::ParseModule(kTwoChains);
  HloMemoryScheduler scheduler;
  ASSERT_TRUE(testing::RunPass(scheduler, module.get()));
  EXPECT_TRUE(module->is_scheduled());
  ASSERT_NE(module->schedule(module->entry_computation()), nullptr);
  EXPECT_NE(module->ToString().find("is_scheduled=true"), std::string::npos);
  ASSERT_EQ(scheduler.run_log().decisions.size(), 1u);
  EXPECT_NE(scheduler.run_log().decisions[0].find("peak"), std::string::npos);
  EXPECT_FALSE(testing::RunPass(scheduler, module.get())) << "already scheduled the same way";
}

}  // namespace
}  // namespace systolic
