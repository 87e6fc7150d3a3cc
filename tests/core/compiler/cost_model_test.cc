#include "core/compiler/roofline_cost_model.h"

#include "core/compiler/fusible.h"

#include "core/compiler/hlo_cost_analysis.h"
#include "core/compiler/layout_util.h"
#include "core/compiler/shape_size.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

constexpr char kModule[] = R"(
HloModule m

ENTRY %main (x: f32[128,256], w: f32[256,512], v: f32[1024]) -> (f32[128,512], f32[512], f32[1024]) {
  %x = f32[128,256] parameter(0)
  %w = f32[256,512] parameter(1)
  %v = f32[1024] parameter(2)
  %d = f32[128,512] dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %s = f32[512] slice(%v), slice={[0:512]}
  %e = f32[1024] exponential(%v)
  %n = f32[1024] negate(%e)
  ROOT %t = (f32[128,512], f32[512], f32[1024]) tuple(%d, %s, %n)
}
)";

TEST(HloCostAnalysisTest, CountsFlopsAndBytes) {
  auto module = testing::ParseModule(kModule);
  const HloInstruction* d = testing::FindInstruction(*module, "d");
  EXPECT_EQ(WorkOf(*d).matrix_flops, 2.0 * 128 * 512 * 256);
  const HloInstruction* e = testing::FindInstruction(*module, "e");
  EXPECT_EQ(WorkOf(*e).flops, 1024);
  EXPECT_EQ(WorkOf(*e).transcendentals, 1024);
  KernelTraffic dot_traffic = TrafficOf(*d);
  EXPECT_EQ(dot_traffic.bytes_read, (128 * 256 + 256 * 512) * 4.0);
  EXPECT_EQ(dot_traffic.bytes_written, 128 * 512 * 4.0);
  // A slice reads only what it keeps.
  EXPECT_EQ(TrafficOf(*testing::FindInstruction(*module, "s")).bytes_read, 512 * 4.0);
  // Fused, e's result never goes to memory.
  FusionCandidate fused{{e, testing::FindInstruction(*module, "n")},
                        {testing::FindInstruction(*module, "n")}};
  KernelTraffic t = TrafficOf(fused);
  EXPECT_EQ(t.bytes_read, 4096);
  EXPECT_EQ(t.bytes_written, 4096);
  EXPECT_EQ(t.inputs.size(), 1u);
  EXPECT_TRUE(RunsNoKernel(*testing::FindInstruction(*module, "t")));
}

// One opcode table for both: a divide is no transcendental in the cost, yet
// fusion does not compute it twice; an exponential is both.
TEST(HloCostAnalysisTest, TranscendentalsAndWhatFusionWillNotDuplicate) {
  auto module = testing::ParseModule(R"(
HloModule m
ENTRY %main (a: f32[64], b: f32[64]) -> (f32[64], f32[64], f32[64]) {
  %a = f32[64] parameter(0)
  %b = f32[64] parameter(1)
  %q = f32[64] divide(%a, %b)
  %e = f32[64] exponential(%a)
  %s = f32[64] add(%a, %b)
  ROOT %t = (f32[64], f32[64], f32[64]) tuple(%q, %e, %s)
})");
  const HloInstruction* q = testing::FindInstruction(*module, "q");
  const HloInstruction* e = testing::FindInstruction(*module, "e");
  const HloInstruction* s = testing::FindInstruction(*module, "s");
  EXPECT_EQ(WorkOf(*q).transcendentals, 0);
  EXPECT_EQ(WorkOf(*e).transcendentals, 64);
  EXPECT_TRUE(IsExpensiveToDuplicate(*q));
  EXPECT_TRUE(IsExpensiveToDuplicate(*e));
  EXPECT_FALSE(IsExpensiveToDuplicate(*s));
}

TEST(RooflineCostModelTest, TimeIsTheSlowerOfComputeAndMemoryPlusOverhead) {
  auto module = testing::ParseModule(kModule);
  RooflineParameters p;
  p.matrix_flops_per_second = 1e12;
  p.memory_bytes_per_second = 1e9;
  p.kernel_overhead_seconds = 1e-6;
  RooflineCostModel model(p);
  const HloInstruction* d = testing::FindInstruction(*module, "d");
  CostEstimate dot = model.EstimateInstruction(*d);
  const double bytes = (128 * 256 + 256 * 512 + 128 * 512) * 4.0;
  EXPECT_DOUBLE_EQ(dot.seconds, 1e-6 + std::max(2.0 * 128 * 512 * 256 / 1e12, bytes / 1e9));
  EXPECT_EQ(dot.flops, 2.0 * 128 * 512 * 256);
  EXPECT_EQ(model.EstimateInstruction(*testing::FindInstruction(*module, "t")).seconds, 0);
  // Fusing saves one kernel and a round trip of e.
  const HloInstruction* e = testing::FindInstruction(*module, "e");
  const HloInstruction* n = testing::FindInstruction(*module, "n");
  const double separate = model.EstimateInstruction(*e).seconds + model.EstimateInstruction(*n).seconds;
  const double fused = model.EstimateFusion(FusionCandidate{{e, n}, {n}}).seconds;
  EXPECT_NEAR(separate - fused, 1e-6 + 2 * 4096 / 1e9, 1e-12);
}

TEST(RooflineCostModelTest, OnChipFootprintCountsDoubleBufferedStreams) {
  auto module = testing::ParseModule(kModule);
  RooflineParameters p;
  p.stream_tile_bytes = 1024;
  RooflineCostModel model(p);
  const HloInstruction* e = testing::FindInstruction(*module, "e");
  const HloInstruction* n = testing::FindInstruction(*module, "n");
  // v in, n out: two streams of 2 x 1 KiB tiles.
  EXPECT_EQ(model.OnChipFootprint(FusionCandidate{{e, n}, {n}}), 4 * 1024);
}

TEST(HloCostAnalysisTest, ADynamicUpdateSliceMovesOnlyItsUpdate) {
  // A layer's gradient written into the stack of all layers, in place.
  auto module = testing::ParseModule(R"(
HloModule dus
ENTRY main {
  stack = f32[32,1024,1024] parameter(0)
  update = f32[1,1024,1024] parameter(1)
  i = s32[] parameter(2)
  zero = s32[] constant(0)
  ROOT d = f32[32,1024,1024] dynamic-update-slice(stack, update, i, zero, zero)
})");
  const KernelTraffic t = TrafficOf(*testing::FindInstruction(*module, "d"));
  EXPECT_EQ(t.bytes_written, 1024 * 1024 * 4.0);
  EXPECT_EQ(t.bytes_read, 1024 * 1024 * 4.0 + 4 + 4);
}

TEST(LayoutUtilTest, ASmallSecondMinorDimensionGetsAShortTile) {
  // bf16 packs two to a word: T(16,128)(2,1) in general, T(2,128)(2,1)
  // for two rows, so a [2, N] array is not padded to 16 rows.
  const std::vector<Tile> general = VectorRegisterTiles(BF16, 2);
  ASSERT_EQ(general.size(), 2u);
  EXPECT_EQ(general[0].dimensions, (std::vector<int64_t>{16, 128}));
  const std::vector<Tile> short_tiles = VectorRegisterTiles(BF16, 3, 2);
  EXPECT_EQ(short_tiles[0].dimensions, (std::vector<int64_t>{2, 128}));
  EXPECT_EQ(VectorRegisterTiles(F32, 2, 5)[0].dimensions, (std::vector<int64_t>{8, 128}));
  EXPECT_EQ(VectorRegisterTiles(F32, 2, 3)[0].dimensions, (std::vector<int64_t>{4, 128}));
  Shape s(BF16, {2, 2048, 4096});
  SetLayout(&s, {1, 0, 2}, /*tiled=*/true);
  EXPECT_EQ(ByteSizeOf(s), 2 * 2048 * 4096 * 2);
}

TEST(ShapeSizeTest, TilesPadTheMinorDimensions) {
  Shape s(F32, {3, 5});
  EXPECT_EQ(ByteSizeOf(s), 60);
  Layout tiled({1, 0});
  tiled.mutable_tiles()->push_back(Tile{{8, 128}});
  s.set_layout(tiled);
  EXPECT_EQ(ByteSizeOf(s), 8 * 128 * 4);
  EXPECT_EQ(UnpaddedByteSizeOf(s), 60);
  EXPECT_EQ(ByteSizeOf(Shape::MakeTuple({Shape(S32, {2}), Shape(PRED, {3})})), 11);
}

}  // namespace
}  // namespace systolic
