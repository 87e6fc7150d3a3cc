// The all-reduce / all-gather / reduce-scatter combiners: what combines, what
// must not, and that combined programs compute what the originals did.
#include "core/compiler/collective_combiner.h"

#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

using testing::CountOpcode;
using testing::ParseModule;
using testing::RunPass;

constexpr char kGradients[] = R"(
HloModule gradients, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT t = f32[] add(x, y)
}
ENTRY step {
  w = f32[64,32] parameter(0)
  b = f32[32] parameter(1)
  g = f32[16] parameter(2)
  gw = f32[64,32] all-reduce(w), replica_groups={{0,1,2,3}}, to_apply=add
  gb = f32[32] all-reduce(b), replica_groups={{0,1,2,3}}, to_apply=sum
  gg = f32[16] all-reduce(g), replica_groups={{0,1},{2,3}}, to_apply=add
  ROOT out = (f32[64,32], f32[32], f32[16]) tuple(gw, gb, gg)
}
)";

// Each device's outputs for deterministic per-device arguments.
std::vector<Literal> RunOnDevices(const HloModule& module, int64_t replicas) {
  std::vector<std::vector<Literal>> args;
  for (int64_t d = 0; d < replicas; ++d) {
    args.push_back(MakeRandomArguments(*module.entry_computation(), 7, uint64_t(d)));
  }
  auto out = EvaluateSpmd(module, args, replicas, 1);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : std::vector<Literal>{};
}

TEST(CollectiveCombiner, CombinesIndependentAllReducesOverTheSameGroups) {
  auto module = ParseModule(kGradients);
  const std::vector<Literal> before = RunOnDevices(*module, 4);
  CollectiveCombiner combiner(HloOpcode::kAllReduce);
  EXPECT_EQ(combiner.name(), "all-reduce-combiner");
  ASSERT_TRUE(RunPass(combiner, module.get()));
  // gw and gb (equal reductions, same groups) combine; gg's groups differ.
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduce), 2);
  const HloInstruction* combined = nullptr;
  for (const HloInstruction* i : module->entry_computation()->instructions()) {
    if (i->opcode() == HloOpcode::kAllReduce && i->shape().IsTuple()) combined = i;
  }
  ASSERT_NE(combined, nullptr);
  EXPECT_EQ(combined->operand_count(), 2);
  EXPECT_EQ(combined->provenance().size(), 2u);
  EXPECT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);
  EXPECT_EQ(RunOnDevices(*module, 4), before);
  EXPECT_EQ(combiner.run_log().rewrites.at("combine all-reduces"), 1);
}

TEST(CollectiveCombiner, NeverCombinesACollectiveWithOneItDependsOn) {
  auto module = ParseModule(R"(
HloModule chain, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8] parameter(0)
  r1 = f32[8] all-reduce(x), replica_groups={{0,1}}, to_apply=add
  y = f32[8] multiply(r1, r1)
  r2 = f32[8] all-reduce(y), replica_groups={{0,1}}, to_apply=add
  ROOT out = (f32[8], f32[8]) tuple(r1, r2)
}
)");
  CollectiveCombiner combiner(HloOpcode::kAllReduce);
  EXPECT_FALSE(RunPass(combiner, module.get()));
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduce), 2);
}

TEST(CollectiveCombiner, DifferentReductionsAndTheSizeLimitKeepCollectivesApart) {
  auto module = ParseModule(R"(
HloModule mixed, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[1024] parameter(0)
  y = f32[1024] parameter(1)
  z = f32[1024] parameter(2)
  rx = f32[1024] all-reduce(x), replica_groups={{0,1}}, to_apply=add
  ry = f32[1024] all-reduce(y), replica_groups={{0,1}}, to_apply=max
  rz = f32[1024] all-reduce(z), replica_groups={{0,1}}, to_apply=add
  ROOT out = (f32[1024], f32[1024], f32[1024]) tuple(rx, ry, rz)
}
)");
  // 4 KiB each: a limit of 6 KiB admits no pair.
  CollectiveCombiner small(HloOpcode::kAllReduce, {.max_bytes = 6 * 1024});
  EXPECT_FALSE(RunPass(small, module.get()));
  CollectiveCombiner combiner(HloOpcode::kAllReduce);
  ASSERT_TRUE(RunPass(combiner, module.get()));
  // rx and rz combine; ry reduces with max.
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllReduce), 2);
  EXPECT_TRUE(VerifyHloModule(*module).ok());
}

TEST(CollectiveCombiner, AllGathersCombineOnlyAlongTheSameDimension) {
  auto module = ParseModule(R"(
HloModule gathers, replica_count=2
ENTRY e {
  a = f32[4,8] parameter(0)
  b = f32[4,2] parameter(1)
  c = f32[4,8] parameter(2)
  ga = f32[8,8] all-gather(a), dimensions={0}, replica_groups={{0,1}}
  gb = f32[8,2] all-gather(b), dimensions={0}, replica_groups={{0,1}}
  gc = f32[4,16] all-gather(c), dimensions={1}, replica_groups={{0,1}}
  ROOT out = (f32[8,8], f32[8,2], f32[4,16]) tuple(ga, gb, gc)
}
)");
  const std::vector<Literal> before = RunOnDevices(*module, 2);
  CollectiveCombiner combiner(HloOpcode::kAllGather);
  ASSERT_TRUE(RunPass(combiner, module.get()));
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kAllGather), 2);
  EXPECT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);
  EXPECT_EQ(RunOnDevices(*module, 2), before);
}

TEST(CollectiveCombiner, ReduceScattersCombineAndComputeTheSame) {
  auto module = ParseModule(R"(
HloModule scatters, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  a = f32[8,4] parameter(0)
  b = f32[16] parameter(1)
  ra = f32[4,4] reduce-scatter(a), dimensions={0}, replica_groups={{0,1}}, to_apply=add
  rb = f32[8] reduce-scatter(b), dimensions={0}, replica_groups={{0,1}}, to_apply=add
  ROOT out = (f32[4,4], f32[8]) tuple(ra, rb)
}
)");
  const std::vector<Literal> before = RunOnDevices(*module, 2);
  CollectiveCombiner combiner(HloOpcode::kReduceScatter);
  ASSERT_TRUE(RunPass(combiner, module.get()));
  EXPECT_EQ(CountOpcode(*module, HloOpcode::kReduceScatter), 1);
  EXPECT_TRUE(VerifyHloModule(*module).ok()) << VerifyHloModule(*module);
  EXPECT_EQ(RunOnDevices(*module, 2), before);
}

}  // namespace
}  // namespace systolic
