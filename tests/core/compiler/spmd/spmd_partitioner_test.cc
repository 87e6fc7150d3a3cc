// The SPMD partitioner: each partitioned program, run on its simulated
// partitions with the shards of whole arguments, gives what the
// unpartitioned module gives on one device; and it inserts the collectives
// each layout calls for (and only those).
#include "core/compiler/spmd/spmd_partitioner.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"
#include "tests/core/compiler/spmd/partition_and_run.h"

namespace systolic {
namespace {

using testing::CountOpcode;
using testing::ParseModule;
using testing::PartitionAndRun;

TEST(SpmdPartitioner, LeavesAModuleWithoutShardingsAlone) {
  auto module = ParseModule(R"(
HloModule plain, num_partitions=2
ENTRY e {
  a = f32[4] parameter(0)
  ROOT n = f32[4] negate(a)
})");
  EXPECT_FALSE(SpmdPartitioner::NeedsPartitioning(*module));
  auto changed = SpmdPartitioner().Run(module.get());
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
}

TEST(SpmdPartitioner, ElementwiseRunsOnShardsWithoutCommunication) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[8,6] parameter(0), sharding={devices=[4,1]<=[4]}
  b = f32[8,6] parameter(1), sharding={devices=[4,1]<=[4]}
  s = f32[8,6] add(a, b), sharding={devices=[4,1]<=[4]}
  ROOT e = f32[8,6] exponential(s), sharding={devices=[4,1]<=[4]}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(run.module->entry_computation()->parameter_instruction(0)->shape().dimensions(),
            (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, UnevenShardsArePaddedAndGatheredBack) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[5,3] parameter(0), sharding={devices=[4,1]<=[4]}
  n = f32[5,3] negate(a), sharding={devices=[4,1]<=[4]}
  ROOT r = f32[5,3] copy(n), sharding={replicated}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  // ceil(5 / 4) = 2 rows per partition, gathered to 8 then cut to 5.
  EXPECT_EQ(run.module->entry_computation()->parameter_instruction(0)->shape().dimensions(),
            (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 1);
}

TEST(SpmdPartitioner, MovingATilingBetweenDimensionsIsOneAllToAll) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
ENTRY e {
  a = f32[4,6] parameter(0), sharding={devices=[2,1]0,1}
  ROOT c = f32[4,6] copy(a), sharding={devices=[1,2]0,1}
})", 2);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllToAll), 1);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, TheSameTilesOnOtherPartitionsMoveByCollectivePermute) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[8,2] parameter(0), sharding={devices=[4,1]0,1,2,3}
  ROOT c = f32[8,2] copy(a), sharding={devices=[4,1]3,2,1,0}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kCollectivePermute), 1);
}

TEST(SpmdPartitioner, BroadcastTransposeAndReshapeKeepTheirTiles) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[8] parameter(0), sharding={devices=[4]<=[4]}
  b = f32[8,3] broadcast(a), dimensions={0}, sharding={devices=[4,1]<=[4]}
  t = f32[3,8] transpose(b), dimensions={1,0}, sharding={devices=[1,4]<=[4]}
  r = f32[3,4,2] reshape(t), sharding={devices=[1,4,1]<=[4]}
  ROOT n = f32[3,4,2] negate(r), sharding={devices=[1,4,1]<=[4]}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllToAll), 0);
}

TEST(SpmdPartitioner, ReduceOverASplitDimensionIsCompletedByAnAllReduce) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}
ENTRY e {
  a = f32[4,7] parameter(0), sharding={devices=[1,2]0,1}
  n = f32[4,7] negate(a), sharding={devices=[1,2]0,1}
  init = f32[] constant(-inf)
  ROOT r = f32[4] reduce(n, init), dimensions={1}, to_apply=max, sharding={replicated}
})", 2);
  // 7 columns on 2 partitions: the padded eighth must not win the maximum.
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllReduce), 1);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

constexpr char kMatmul[] = R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[16,12] parameter(0), sharding={LHS}
  b = f32[12,8] parameter(1), sharding={RHS}
  ROOT d = f32[16,8] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={OUT}
})";

std::string Matmul(const std::string& lhs, const std::string& rhs, const std::string& out) {
  std::string text = kMatmul;
  text.replace(text.find("LHS"), 3, lhs);
  text.replace(text.find("RHS"), 3, rhs);
  text.replace(text.find("OUT"), 3, out);
  return text;
}

TEST(SpmdPartitioner, DotSplitOnRowsNeedsNoCommunication) {
  auto run = PartitionAndRun(Matmul("devices=[4,1]<=[4]", "replicated", "devices=[4,1]<=[4]"), 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllReduce) +
                CountOpcode(*run.module, HloOpcode::kAllGather),
            0);
}

TEST(SpmdPartitioner, DotSplitOnContractingDimensionsSumsPartialProducts) {
  auto run = PartitionAndRun(Matmul("devices=[1,4]<=[4]", "devices=[4,1]<=[4]", "replicated"), 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllReduce), 1);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, SplitContractingIntoASplitResultIsAReduceScatter) {
  auto run =
      PartitionAndRun(Matmul("devices=[1,4]<=[4]", "devices=[4,1]<=[4]", "devices=[4,1]<=[4]"), 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kReduceScatter), 1);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllReduce), 0);
}

TEST(SpmdPartitioner, PartiallyReplicatedOperandsAndUnevenContracting) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[6,10] parameter(0), sharding={devices=[1,2,2]<=[4] last_tile_dim_replicate}
  b = f32[10,5] parameter(1), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  ROOT d = f32[6,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[2,2]<=[4]}
})", 4);
  EXPECT_SAME_RESULTS(run);
}

TEST(SpmdPartitioner, BatchedDotKeepsTheBatchSplit) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
ENTRY e {
  a = f32[4,3,5] parameter(0), sharding={devices=[2,1,1]0,1}
  b = f32[4,5,2] parameter(1), sharding={devices=[2,1,1]0,1}
  ROOT d = f32[4,3,2] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}, sharding={devices=[2,1,1]0,1}
})", 2);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, ConvolutionSplitOnRowsExchangesHalos) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
ENTRY e {
  image = f32[2,17,9,3] parameter(0), sharding={devices=[1,4,1,1]<=[4]}
  kernel = f32[3,3,3,4] parameter(1), sharding={replicated}
  ROOT conv = f32[2,17,9,4] convolution(image, kernel), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, sharding={devices=[1,4,1,1]<=[4]}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kCollectivePermute), 2);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, StridedConvolutionSplitOnRows) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
ENTRY e {
  image = f32[2,20,6,3] parameter(0), sharding={devices=[1,2,1,1]0,1}
  kernel = f32[5,5,3,4] parameter(1), sharding={replicated}
  ROOT conv = f32[2,10,3,4] convolution(image, kernel), window={size=5x5 stride=2x2 pad=2_2x2_2}, dim_labels=b01f_01io->b01f, sharding={devices=[1,2,1,1]0,1}
})", 2);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, ReduceWindowSplitInTwoDimensions) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=4
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}
ENTRY e {
  a = f32[10,9,2] parameter(0), sharding={devices=[2,2,1]<=[4]}
  init = f32[] constant(-inf)
  ROOT w = f32[4,3,2] reduce-window(a, init), window={size=5x3x1 stride=3x3x1 pad=2_2x0_0x0_0}, to_apply=max, sharding={devices=[2,2,1]<=[4]}
})", 4);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
}

TEST(SpmdPartitioner, WhileLoopStateStaysSharded) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
cond {
  s = (s32[], f32[8,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[8,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8,4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[8,4] add(x, x)
  ROOT t = (s32[], f32[8,4]) tuple(j, y)
}
ENTRY e {
  a = f32[8,4] parameter(0), sharding={devices=[2,1]0,1}
  zero = s32[] constant(0)
  init = (s32[], f32[8,4]) tuple(zero, a)
  w = (s32[], f32[8,4]) while(init), condition=cond, body=body, sharding={{replicated}, {devices=[2,1]0,1}}
  ROOT r = f32[8,4] get-tuple-element(w), index=1, sharding={devices=[2,1]0,1}
})", 2);
  EXPECT_SAME_RESULTS(run);
  ASSERT_TRUE(run.module);
  // The body adds shards: no collective at all.
  EXPECT_EQ(CountOpcode(*run.module, HloOpcode::kAllGather), 0);
  for (const HloComputation* c : run.module->computations()) {
    if (c->name() == "body") {
      EXPECT_EQ(c->parameter_instruction(0)->shape().tuple_shapes(1).dimensions(),
                (std::vector<int64_t>{4, 4}));
    }
  }
}

TEST(SpmdPartitioner, OperationsWithoutARuleAreComputedWholeThenSliced) {
  auto run = PartitionAndRun(R"(
HloModule m, num_partitions=2
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  x = f32[6,4] parameter(0), sharding={devices=[1,2]0,1}
  ROOT s = f32[6,4] sort(x), dimensions={0}, to_apply=less, sharding={devices=[1,2]0,1}
})", 2);
  EXPECT_SAME_RESULTS(run);
}

TEST(SpmdPartitioner, ManualValuesAreLeftAsTheyAre) {
  auto module = ParseModule(R"(
HloModule m, num_partitions=2
ENTRY e {
  a = f32[4] parameter(0), sharding={manual}
  ROOT n = f32[4] negate(a), sharding={manual}
})");
  EXPECT_FALSE(SpmdPartitioner::NeedsPartitioning(*module));
}

TEST(SpmdPartitioner, ErrorsNameTheInstruction) {
  auto module = ParseModule(R"(
HloModule m, num_partitions=4
ENTRY e {
  a = f32[4] parameter(0), sharding={devices=[2]0,1}
  ROOT n = f32[4] negate(a), sharding={devices=[2]0,1}
})");
  auto changed = SpmdPartitioner(4).Run(module.get());
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.status().message().find("names 2 devices, the program has 4 partitions"),
            std::string::npos)
      << changed.status();
}

// The samples written for this product.
TEST(SpmdPartitionerSamples, PartitionedSamplesGiveTheUnpartitionedResults) {
  for (const char* name : {"sharded_mlp.hlo", "sharded_matmul_2d.hlo", "sharded_conv.hlo"}) {
    SCOPED_TRACE(name);
    auto file = LoadHloFile(absl::StrCat(SYSTOLIC_SOURCE_DIR, "/samples/hlo/", name), true);
    ASSERT_TRUE(file.ok()) << file.status();
    ASSERT_FALSE(file->empty());
    ASSERT_TRUE((*file)[0].module.ok());
    const HloModule& module = *(*file)[0].module.value();
    auto run = PartitionAndRun(module, module.num_partitions(), 1e-3);
    EXPECT_SAME_RESULTS(run);
  }
}

}  // namespace
}  // namespace systolic
