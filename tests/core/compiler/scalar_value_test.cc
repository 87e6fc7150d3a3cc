// Scalars known without running: constants, arithmetic on them, and what
// each device computes from its own ids.
#include "core/compiler/scalar_value.h"

#include "core/hlo/hlo_computation.h"
#include "tests/core/compiler/compiler_test_util.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

using testing::FindInstruction;

constexpr char kShardIndex[] = R"(
HloModule shard, num_partitions=8
ENTRY main {
  x = s32[] parameter(0)
  id = u32[] partition-id()
  two = u32[] constant(2)
  four = u32[] constant(4)
  per_replica = u32[] divide(id, two)
  axis = u32[] remainder(per_replica, four)
  index = s32[] convert(axis)
  one = s32[] constant(1)
  past = pred[] compare(index, one), direction=GE
  three = s32[] constant(3)
  seven = s32[] constant(7)
  picked = s32[] select(past, three, seven)
  folded = s32[] multiply(three, seven)
  depends = s32[] add(x, one)
  r = u32[] replica-id()
  ROOT t = (pred[], s32[], s32[], s32[], u32[]) tuple(past, picked, folded, depends, r)
})";

TEST(ScalarValue, EachDeviceComputesItsOwnIndex) {
  auto module = ParseAndReturnVerifiedModule(kShardIndex);
  ASSERT_TRUE(module.ok()) << module.status();
  auto named = [&](const char* name) -> const HloInstruction& {
    return *FindInstruction(**module, name);
  };
  const HloInstruction& past = named("past");
  const HloInstruction& picked = named("picked");
  // (partition / 2) % 4 >= 1: partitions 0 and 1 are not past the bound.
  for (int64_t partition = 0; partition < 8; ++partition) {
    const bool expected = (partition / 2) % 4 >= 1;
    EXPECT_EQ(ScalarValueOnDevice(past, DeviceIds{0, partition}), int64_t(expected)) << partition;
    EXPECT_EQ(ScalarValueOnDevice(picked, DeviceIds{0, partition}), expected ? 3 : 7);
  }
  EXPECT_EQ(ScalarValueOnDevice(named("r"), DeviceIds{5, 0}), 5);
  // A parameter is a value: unknown on every device.
  EXPECT_EQ(ScalarValueOnDevice(named("depends"), DeviceIds{}),
            std::nullopt);
}

TEST(ScalarValue, ConstantsAloneDetermineOnlyWhatNeedsNoIds) {
  auto module = ParseAndReturnVerifiedModule(kShardIndex);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(ScalarConstantValue(*FindInstruction(**module, "folded")), 21);
  EXPECT_EQ(ScalarConstantValue(*FindInstruction(**module, "past")), std::nullopt);
  EXPECT_EQ(ScalarConstantValue(*FindInstruction(**module, "seven")), 7);
}

}  // namespace
}  // namespace systolic
