#include "core/compiler/async_collective_conversion.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/compiler/hlo_dataflow_analysis.h"
#include "core/compiler/hlo_memory_scheduler.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

using testing::CountOpcode;
using testing::FindInstruction;
using testing::ParseModule;
using testing::RunPass;

// One of each collective over four partitions, each feeding compute.
constexpr char kCollectives[] = R"(
HloModule collectives, num_partitions=4

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[8,16], y: f32[8,16]) -> (f32[8,16], f32[32,16], f32[8,16], f32[2,16]) {
  %x = f32[8,16]{1,0} parameter(0)
  %y = f32[8,16]{1,0} parameter(1)
  %ar = f32[8,16]{1,0} all-reduce(%x), channel_id=1, replica_groups=[1,4]<=[4], use_global_device_ids=true, to_apply=%sum, sharding={manual}, metadata={op_name="grads/sum"}
  %ag = f32[32,16]{1,0} all-gather(%y), channel_id=2, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true, metadata={op_name="fsdp/gather"}
  %cp = f32[8,16]{1,0} collective-permute(%x), channel_id=3, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %rs = f32[2,16]{1,0} reduce-scatter(%y), channel_id=4, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true, to_apply=%sum
  %ar2 = f32[8,16]{1,0} multiply(%ar, %cp)
  %ag2 = f32[32,16]{1,0} negate(%ag)
  ROOT %t = (f32[8,16]{1,0}, f32[32,16]{1,0}, f32[8,16]{1,0}, f32[2,16]{1,0}) tuple(%ar2, %ag2, %cp, %rs)
}
)";

std::vector<Literal> RunOnPartitions(const HloModule& module, int64_t partitions) {
  std::vector<std::vector<Literal>> args;
  for (int64_t d = 0; d < partitions; ++d) {
    args.push_back(MakeRandomArguments(*module.entry_computation(), 11, uint64_t(d)));
  }
  auto out = EvaluateSpmd(module, args, 1, partitions);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : std::vector<Literal>{};
}

TEST(AsyncCollectiveConversion, SplitsAllReduceAllGatherAndCollectivePermute) {
  auto module = ParseModule(kCollectives);
  AsyncCollectiveConversion conversion;
  EXPECT_EQ(conversion.name(), "async-collective-conversion");
  ASSERT_TRUE(RunPass(conversion, module.get()));
  EXPECT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);

  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduce), 0);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllGather), 0);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kCollectivePermute), 0);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduceStart), 1);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduceDone), 1);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllGatherStart), 1);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllGatherDone), 1);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kCollectivePermuteStart), 1);
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kCollectivePermuteDone), 1);
  // The device layer has no async form of these yet.
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kReduceScatter), 1);
  EXPECT_EQ(conversion.run_log().rewrites.at("all-gather => all-gather-start, all-gather-done"), 1);
}

TEST(AsyncCollectiveConversion, KeepsChannelGroupsShardingAndMetadata) {
  auto module = ParseModule(kCollectives);
  AsyncCollectiveConversion conversion;
  ASSERT_TRUE(RunPass(conversion, module.get()));

  const HloInstruction* start = FindInstruction(*module, "ar-start");
  const HloInstruction* done = FindInstruction(*module, "ar-done");
  ASSERT_NE(start, nullptr);
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(start->opcode(), HloOpcode::kAllReduceStart);
  EXPECT_EQ(done->operand(0), start);
  EXPECT_EQ(start->channel_id(), 1);
  EXPECT_TRUE(start->use_global_device_ids());
  EXPECT_EQ(start->replica_groups(), (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}}));
  EXPECT_EQ(start->to_apply()->name(), "sum");
  EXPECT_EQ(start->metadata().op_name, "grads/sum");
  EXPECT_EQ(done->metadata().op_name, "grads/sum");
  ASSERT_TRUE(done->has_sharding());
  EXPECT_EQ(done->sharding(), start->sharding());
  // The users read the done.
  EXPECT_EQ(FindInstruction(*module, "ar2")->operand(0), done);

  const HloInstruction* gather = FindInstruction(*module, "ag-start");
  ASSERT_NE(gather, nullptr);
  EXPECT_EQ(gather->dimensions(), std::vector<int64_t>{0});
  EXPECT_EQ(gather->channel_id(), 2);
  EXPECT_EQ(gather->shape().tuple_shapes(1).dimensions(), (std::vector<int64_t>{32, 16}));
  const HloInstruction* permute = FindInstruction(*module, "cp-start");
  ASSERT_NE(permute, nullptr);
  EXPECT_EQ(permute->source_target_pairs().size(), 4u);
  // A collective used by the root: the root now reads its done.
  EXPECT_EQ(module->entry_computation()->root_instruction()->operand(2),
            FindInstruction(*module, "cp-done"));
}

TEST(AsyncCollectiveConversion, EveryDeviceComputesTheSameValues) {
  auto module = ParseModule(kCollectives);
  const std::vector<Literal> before = RunOnPartitions(*module, 4);
  AsyncCollectiveConversion conversion;
  ASSERT_TRUE(RunPass(conversion, module.get()));
  const std::vector<Literal> after = RunOnPartitions(*module, 4);
  ASSERT_EQ(before.size(), 4u);
  EXPECT_EQ(before, after);
}

TEST(AsyncCollectiveConversion, AScheduledPairTakesTheCollectivesPlace) {
  auto module = ParseModule(kCollectives);
  HloMemoryScheduler scheduler;
  RunPass(scheduler, module.get());
  std::vector<std::string> before;
  for (const HloInstruction* instr : *module->schedule(module->entry_computation())) {
    before.push_back(instr->name());
  }

  AsyncCollectiveConversion conversion;
  ASSERT_TRUE(RunPass(conversion, module.get()));
  const std::vector<HloInstruction*>& order = *module->schedule(module->entry_computation());
  EXPECT_EQ(int64_t(order.size()), module->entry_computation()->instruction_count());
  // Read with each start as its collective and each done dropped, the order
  // is the old one; every done follows its start.
  std::vector<std::string> after;
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string& name = order[i]->name();
    if (name.size() > 5 && name.substr(name.size() - 5) == "-done") {
      EXPECT_EQ(order[i]->operand(0), order[i - 1]) << name;
      continue;
    }
    after.push_back(name.size() > 6 && name.substr(name.size() - 6) == "-start"
                        ? name.substr(0, name.size() - 6)
                        : name);
  }
  EXPECT_EQ(after, before);
}

TEST(AsyncCollectiveConversion, TheDoneHandsOutTheBufferItsStartAllocated) {
  auto module = ParseModule(kCollectives);
  AsyncCollectiveConversion conversion;
  ASSERT_TRUE(RunPass(conversion, module.get()));
  const HloDataflowAnalysis dataflow(*module->entry_computation());
  for (const char* name : {"ag", "cp", "ar"}) {
    const std::string pair(name);
    const HloInstruction* start = FindInstruction(*module, pair + "-start");
    const HloInstruction* done = FindInstruction(*module, pair + "-done");
    // A start tuple's result is its last buffer; all-reduce-start has one.
    const absl::Span<const int64_t> started = dataflow.BuffersOf(start);
    ASSERT_FALSE(started.empty()) << pair;
    EXPECT_TRUE(dataflow.DefinedBy(done).empty()) << pair;
    ASSERT_EQ(dataflow.BuffersOf(done).size(), 1u) << pair;
    EXPECT_EQ(dataflow.BuffersOf(done)[0], started.back()) << pair;
  }
}

TEST(AsyncCollectiveConversion, LeavesAModuleWithoutCollectivesAlone) {
  auto module = ParseModule(R"(
HloModule m
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  ROOT %n = f32[4] negate(%x)
}
)");
  AsyncCollectiveConversion conversion;
  EXPECT_FALSE(RunPass(conversion, module.get()));
}

}  // namespace
}  // namespace systolic
