#include "core/compiler/latency_hiding_scheduler.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/compiler/async_collective_conversion.h"
#include "core/compiler/async_collectives.h"
#include "core/compiler/compiler.h"
#include "core/compiler/hlo_memory_scheduler.h"
#include "core/compiler/roofline_cost_model.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

using testing::FindInstruction;
using testing::ParseModule;
using testing::RunPass;

// Every collective takes the same time: lets a test say how much compute
// must cover it.
class FixedCollectiveCostModel : public CollectiveCostModel {
 public:
  explicit FixedCollectiveCostModel(double seconds) : seconds_(seconds) {}
  std::string name() const override { return "fixed"; }
  absl::StatusOr<double> EstimateSeconds(const HloInstruction&,
                                         const SpmdDeviceCounts&) const override {
    return seconds_;
  }

 private:
  double seconds_;
};

std::string ReadSample(const std::string& relative) {
  std::ifstream in(std::string(SYSTOLIC_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Splits the collectives, schedules for memory, then hides latency; returns
// the scheduler for its log.
std::unique_ptr<LatencyHidingScheduler> ConvertAndSchedule(
    HloModule* module, const CollectiveCostModel* collectives) {
  static const RooflineCostModel roofline;
  AsyncCollectiveConversion conversion;
  RunPass(conversion, module);
  HloMemoryScheduler memory;
  RunPass(memory, module);
  auto scheduler = std::make_unique<LatencyHidingScheduler>(&roofline, collectives);
  RunPass(*scheduler, module);
  return scheduler;
}

const std::vector<HloInstruction*>& EntryOrder(const HloModule& module) {
  return *module.schedule(module.entry_computation());
}

int64_t PositionOf(const HloModule& module, const std::string& name) {
  const std::vector<HloInstruction*>& order = EntryOrder(module);
  const HloInstruction* instr = FindInstruction(module, name);
  return std::find(order.begin(), order.end(), instr) - order.begin();
}

// Every operand and control predecessor comes before its user, and every
// instruction comes once.
void ExpectRespectsDependencies(const HloModule& module) {
  const std::vector<HloInstruction*>& order = EntryOrder(module);
  EXPECT_EQ(int64_t(order.size()), module.entry_computation()->instruction_count());
  absl::flat_hash_map<const HloInstruction*, int64_t> at;
  for (int64_t i = 0; i < int64_t(order.size()); ++i) at[order[i]] = i;
  EXPECT_EQ(at.size(), order.size());
  for (const HloInstruction* instr : order) {
    for (const HloInstruction* op : instr->operands()) {
      EXPECT_LT(at.at(op), at.at(instr)) << op->name() << " after its user " << instr->name();
    }
    for (const HloInstruction* pred : instr->control_predecessors()) {
      EXPECT_LT(at.at(pred), at.at(instr)) << pred->name() << " after " << instr->name();
    }
  }
}

// The most collectives of one kind between their start and done at once.
int64_t MostInFlightOfOneKind(const HloModule& module) {
  absl::flat_hash_map<HloOpcode, int64_t> in_flight;
  int64_t most = 0;
  for (const HloInstruction* instr : EntryOrder(module)) {
    if (IsAsyncCollectiveStart(*instr)) {
      most = std::max(most, ++in_flight[*CollectiveKindOf(*instr)]);
    } else if (IsAsyncCollectiveDone(*instr)) {
      --in_flight[*CollectiveKindOf(*instr)];
    }
  }
  return most;
}

TEST(LatencyHidingScheduler, RunsTheSamplesComputeWhileItsAllGatherMoves) {
  auto module = ParseModule(ReadSample("samples/hlo/allgather_overlap.hlo"));
  auto scheduler = ConvertAndSchedule(module.get(), /*collectives=*/nullptr);
  EXPECT_TRUE(module->is_scheduled());
  EXPECT_TRUE(VerifyHloModule(*module).ok());
  ExpectRespectsDependencies(*module);
  // 32 MiB over eight devices takes far longer than both matmuls: the start
  // goes before all of them, the done after.
  const int64_t start = PositionOf(*module, "w-start");
  const int64_t done = PositionOf(*module, "w-done");
  for (const char* compute : {"a", "b", "c"}) {
    EXPECT_LT(start, PositionOf(*module, compute)) << compute;
    EXPECT_GT(done, PositionOf(*module, compute)) << compute;
  }
  EXPECT_EQ(scheduler->run_log().rewrites.at("overlapped a collective"), 1);
  ASSERT_FALSE(scheduler->run_log().decisions.empty());
  EXPECT_NE(scheduler->run_log().decisions[0].find("%w-start"), std::string::npos);
  EXPECT_NE(scheduler->run_log().decisions[0].find("alongside 3 instructions before %w-done"),
            std::string::npos)
      << scheduler->run_log().decisions[0];
}

// A chain of six equal steps next to an all-gather of a parameter.
constexpr char kChain[] = R"(
HloModule chain, num_partitions=4

ENTRY %main (p: f32[64,1024], x: f32[256,1024]) -> (f32[256,1024], f32[256,1024]) {
  %p = f32[64,1024]{1,0} parameter(0)
  %x = f32[256,1024]{1,0} parameter(1)
  %g = f32[256,1024]{1,0} all-gather(%p), channel_id=1, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true
  %n1 = f32[256,1024]{1,0} negate(%x)
  %n2 = f32[256,1024]{1,0} negate(%n1)
  %n3 = f32[256,1024]{1,0} negate(%n2)
  %n4 = f32[256,1024]{1,0} negate(%n3)
  %n5 = f32[256,1024]{1,0} negate(%n4)
  %n6 = f32[256,1024]{1,0} negate(%n5)
  %use = f32[256,1024]{1,0} add(%g, %n6)
  ROOT %t = (f32[256,1024]{1,0}, f32[256,1024]{1,0}) tuple(%use, %n6)
}
)";

int64_t InstructionsBetweenStartAndDone(const HloModule& module) {
  return PositionOf(module, "g-done") - PositionOf(module, "g-start") - 1;
}

TEST(LatencyHidingScheduler, IssuesAStartJustEarlyEnoughToCoverItsCollective) {
  const RooflineCostModel roofline;
  auto probe = ParseModule(kChain);
  const double step = roofline.EstimateInstruction(*FindInstruction(*probe, "n1")).seconds;
  ASSERT_GT(step, 0);

  // Free: nothing need run alongside, so the start stays by its done.
  FixedCollectiveCostModel free(0);
  auto module = ParseModule(kChain);
  ConvertAndSchedule(module.get(), &free);
  ExpectRespectsDependencies(*module);
  EXPECT_EQ(InstructionsBetweenStartAndDone(*module), 0);

  // Two and a half steps long: three steps must run alongside.
  FixedCollectiveCostModel medium(2.5 * step);
  module = ParseModule(kChain);
  ConvertAndSchedule(module.get(), &medium);
  ExpectRespectsDependencies(*module);
  EXPECT_EQ(InstructionsBetweenStartAndDone(*module), 3);
  EXPECT_EQ(PositionOf(*module, "g-done") + 1, PositionOf(*module, "use"));

  // Longer than all the compute: issued as soon as its operand is there.
  FixedCollectiveCostModel slow(100 * step);
  module = ParseModule(kChain);
  ConvertAndSchedule(module.get(), &slow);
  ExpectRespectsDependencies(*module);
  EXPECT_EQ(InstructionsBetweenStartAndDone(*module), 6);
}

// Two all-gathers and an all-reduce, all independent of a chain of compute.
constexpr char kThreeCollectives[] = R"(
HloModule three, num_partitions=4

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %a_plus_b = f32[] add(%a, %b)
}

ENTRY %main (p: f32[64,1024], q: f32[64,1024], r: f32[256,1024], x: f32[256,1024]) -> (f32[256,1024], f32[256,1024], f32[256,1024], f32[256,1024]) {
  %p = f32[64,1024]{1,0} parameter(0)
  %q = f32[64,1024]{1,0} parameter(1)
  %r = f32[256,1024]{1,0} parameter(2)
  %x = f32[256,1024]{1,0} parameter(3)
  %g1 = f32[256,1024]{1,0} all-gather(%p), channel_id=1, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true
  %g2 = f32[256,1024]{1,0} all-gather(%q), channel_id=2, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true
  %s = f32[256,1024]{1,0} all-reduce(%r), channel_id=3, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=%sum
  %n1 = f32[256,1024]{1,0} negate(%x)
  %n2 = f32[256,1024]{1,0} exponential(%n1)
  %n3 = f32[256,1024]{1,0} negate(%n2)
  %n4 = f32[256,1024]{1,0} exponential(%n3)
  %n5 = f32[256,1024]{1,0} negate(%n4)
  %n6 = f32[256,1024]{1,0} exponential(%n5)
  %u1 = f32[256,1024]{1,0} add(%g1, %n6)
  %u2 = f32[256,1024]{1,0} multiply(%g2, %n6)
  %u3 = f32[256,1024]{1,0} subtract(%s, %n6)
  ROOT %t = (f32[256,1024]{1,0}, f32[256,1024]{1,0}, f32[256,1024]{1,0}, f32[256,1024]{1,0}) tuple(%u1, %u2, %u3, %n6)
}
)";

TEST(LatencyHidingScheduler, KeepsAtMostOneCollectiveOfEachKindInFlight) {
  const RooflineCostModel roofline;
  auto probe = ParseModule(kThreeCollectives);
  const double step = roofline.EstimateInstruction(*FindInstruction(*probe, "n1")).seconds;
  // Each needs two steps alongside: both all-gathers fit, one after the
  // other, and the all-reduce runs next to them.
  FixedCollectiveCostModel two_steps(1.5 * step);
  auto module = ParseModule(kThreeCollectives);
  ConvertAndSchedule(module.get(), &two_steps);
  ExpectRespectsDependencies(*module);
  EXPECT_EQ(MostInFlightOfOneKind(*module), 1);
  const int64_t g1_start = PositionOf(*module, "g1-start"), g1_done = PositionOf(*module, "g1-done");
  const int64_t g2_start = PositionOf(*module, "g2-start"), g2_done = PositionOf(*module, "g2-done");
  EXPECT_TRUE(g1_done < g2_start || g2_done < g1_start);
  // Every collective still has compute alongside.
  for (const char* name : {"g1", "g2", "s"}) {
    const std::string n(name);
    EXPECT_GE(PositionOf(*module, n + "-done") - PositionOf(*module, n + "-start") - 1, 2) << n;
  }
  // The all-reduce overlaps an all-gather: kinds do not wait for each other.
  const int64_t s_start = PositionOf(*module, "s-start"), s_done = PositionOf(*module, "s-done");
  EXPECT_TRUE((s_start < g1_done && g1_start < s_done) || (s_start < g2_done && g2_start < s_done));
}

TEST(LatencyHidingScheduler, EveryDeviceComputesTheSameValues) {
  auto run = [](const HloModule& module) {
    std::vector<std::vector<Literal>> args;
    for (int64_t d = 0; d < 4; ++d) {
      args.push_back(MakeRandomArguments(*module.entry_computation(), 5, uint64_t(d)));
    }
    auto out = EvaluateSpmd(module, args, 1, 4);
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? *std::move(out) : std::vector<Literal>{};
  };
  auto module = ParseModule(kThreeCollectives);
  const std::vector<Literal> before = run(*module);
  ConvertAndSchedule(module.get(), nullptr);
  ASSERT_EQ(before.size(), 4u);
  EXPECT_EQ(before, run(*module));
}

TEST(LatencyHidingScheduler, KeepsTheOrderOfAModuleWithoutCollectives) {
  auto module = ParseModule(R"(
HloModule m
ENTRY %main (x: f32[64], y: f32[64]) -> (f32[64], f32[64]) {
  %x = f32[64] parameter(0)
  %y = f32[64] parameter(1)
  %a = f32[64] exponential(%x)
  %b = f32[64] negate(%y)
  ROOT %t = (f32[64], f32[64]) tuple(%a, %b)
}
)");
  HloMemoryScheduler memory;
  RunPass(memory, module.get());
  const std::vector<HloInstruction*> before = EntryOrder(*module);
  const RooflineCostModel roofline;
  LatencyHidingScheduler scheduler(&roofline);
  EXPECT_FALSE(RunPass(scheduler, module.get()));
  EXPECT_EQ(EntryOrder(*module), before);
}

TEST(LatencyHidingScheduler, TheDefaultPipelineOverlapsAndCanBeSwitchedOff) {
  CompileOptions with;
  auto compiled = Compiler(with).Compile(ParseModule(ReadSample("samples/hlo/allgather_overlap.hlo")));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const HloModule& module = *compiled->module;
  EXPECT_NE(FindInstruction(module, "w-start"), nullptr);
  EXPECT_LT(PositionOf(module, "w-start"), PositionOf(module, "w-done") - 1);

  CompileOptions without;
  without.latency_hiding = false;
  compiled = Compiler(without).Compile(ParseModule(ReadSample("samples/hlo/allgather_overlap.hlo")));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_EQ(FindInstruction(*compiled->module, "w-start"), nullptr);
  EXPECT_NE(FindInstruction(*compiled->module, "w"), nullptr);
}

TEST(AlphaBetaCollectiveCostModel, RingStepsOfLatencyAndBandwidth) {
  auto module = ParseModule(kThreeCollectives);
  InterconnectParameters link;
  link.link_bytes_per_second = 1e9;
  link.link_latency_seconds = 1e-6;
  const AlphaBetaCollectiveCostModel model(link);
  const SpmdDeviceCounts devices{1, 4};
  const double bytes = 256 * 1024 * 4;
  // All-gather of a 1 MiB result over 4: 3 steps of a quarter each.
  auto gather = model.EstimateSeconds(*FindInstruction(*module, "g1"), devices);
  ASSERT_TRUE(gather.ok());
  EXPECT_DOUBLE_EQ(*gather, 3 * (1e-6 + bytes / 4 / 1e9));
  // All-reduce: twice as many steps.
  auto reduce = model.EstimateSeconds(*FindInstruction(*module, "s"), devices);
  ASSERT_TRUE(reduce.ok()) << reduce.status();
  EXPECT_DOUBLE_EQ(*reduce, 6 * (1e-6 + bytes / 4 / 1e9));
  EXPECT_FALSE(model.EstimateSeconds(*FindInstruction(*module, "n1"), devices).ok());
}

}  // namespace
}  // namespace systolic
