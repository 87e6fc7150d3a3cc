#include <algorithm>
#include <random>
#include <vector>

#include "core/device/dataflow.h"
#include "core/device/mxu_analytic_engine.h"
#include "core/device/mxu_cycle_engine.h"
#include "core/hlo/float_types.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

std::vector<float> RandomValues(int64_t count, std::mt19937& rng) {
  // Magnitudes spread over several binades, so that the order of the f32
  // sums shows in the last bits.
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-6, 6);
  std::vector<float> values(count);
  for (float& v : values) v = std::ldexp(mantissa(rng), exponent(rng));
  return values;
}

// The straightforward loop: bf16-rounded operands, exact products, f32 sums
// taken over K in chunks of `chunk` (each chunk summed from zero, then added
// to the accumulator in order of K).
std::vector<float> ReferenceDot(const GemmShape& g, const std::vector<float>& a,
                                const std::vector<float>& b, int64_t chunk) {
  std::vector<float> c(g.m * g.n);
  for (int64_t m = 0; m < g.m; ++m) {
    for (int64_t n = 0; n < g.n; ++n) {
      float acc = 0.0f;
      for (int64_t k0 = 0; k0 < g.k; k0 += chunk) {
        float sum = 0.0f;
        for (int64_t k = k0; k < std::min(g.k, k0 + chunk); ++k) {
          sum += float(bfloat16(a[m * g.k + k])) * float(bfloat16(b[k * g.n + n]));
        }
        acc += sum;
      }
      c[m * g.n + n] = acc;
    }
  }
  return c;
}

// Output-stationary sums all of K in one PE; the other dataflows sum R rows
// of K per fold down a column.
int64_t SummationChunk(Dataflow dataflow, const GemmShape& g, const ArrayShape& array) {
  return dataflow == OUTPUT_STATIONARY ? g.k : array.rows;
}

MxuTiming CycleTiming(ArrayShape array, Dataflow dataflow, GemmShape g) {
  std::mt19937 rng(7);
  absl::StatusOr<MxuCycleResult> r =
      MxuCycleEngine(array, dataflow).Run(g, RandomValues(g.m * g.k, rng), RandomValues(g.k * g.n, rng));
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->timing : MxuTiming{};
}

MxuTiming AnalyticTiming(ArrayShape array, Dataflow dataflow, GemmShape g) {
  absl::StatusOr<MxuTiming> t = MxuAnalyticEngine(array, dataflow).Run(g);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : MxuTiming{};
}

// Both engines must give `cycles` (and agree on everything else).
void ExpectCycles(ArrayShape array, Dataflow dataflow, GemmShape g, int64_t cycles) {
  const MxuTiming cycle = CycleTiming(array, dataflow, g);
  const MxuTiming analytic = AnalyticTiming(array, dataflow, g);
  EXPECT_EQ(cycle.cycles, cycles) << "cycle engine";
  EXPECT_EQ(analytic.cycles, cycles) << "analytic engine";
  EXPECT_EQ(cycle.folds, analytic.folds);
  EXPECT_EQ(cycle.mapping_efficiency, analytic.mapping_efficiency);
  EXPECT_EQ(cycle.utilization, analytic.utilization);
}

// --- Hand-worked cases ---

// OS, 2×2 array, M = N = K = 2, one fold. A(i,k) and B(k,j) meet in PE(i,j)
// at cycle i + j + k, so the last MAC (i = j = k = 1) is at cycle 3: 4
// streaming cycles (R + C + T - 2 = 2 + 2 + 2 - 2). The accumulators drain
// through the bottom edge while the next fold streams: no cycles of their
// own (SCALE-Sim's count). Total 4. Utilisation = 8 MACs / (4 PEs × 4
// cycles) = 1/2.
TEST(MxuHandWorkedTest, OutputStationaryOneFold) {
  ExpectCycles({2, 2}, OUTPUT_STATIONARY, {2, 2, 2}, 4);
  const MxuTiming t = AnalyticTiming({2, 2}, OUTPUT_STATIONARY, {2, 2, 2});
  EXPECT_EQ(t.folds, 1);
  EXPECT_DOUBLE_EQ(t.mapping_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(t.utilization, 1.0 / 2);
}

// WS, 4×4 array, M = 3, N = 5, K = 6. Weights B are K × N on the array:
// row folds ceil(6/4) = 2 (4 rows, then 2), column folds ceil(5/4) = 2
// (4 columns, then 1). Each fold: preload the weights, R = 4 cycles; stream
// T = M = 3 rows of A: the last one enters row 3 at cycle 2 + 3 and reaches
// column 3 at cycle 8, so 9 = R + C + T - 2 cycles. 4 + 9 = 13 per fold, and
// partial folds cost a full fold: 4 × 13 = 52.
// Mapping efficiency = (4+2)·(4+1) useful PEs / (4 folds × 16) = 30/64.
// Utilisation = 3·5·6 = 90 MACs / (16 × 52).
TEST(MxuHandWorkedTest, WeightStationaryFourPartialFolds) {
  ExpectCycles({4, 4}, WEIGHT_STATIONARY, {3, 5, 6}, 52);
  const MxuTiming t = AnalyticTiming({4, 4}, WEIGHT_STATIONARY, {3, 5, 6});
  EXPECT_EQ(t.row_folds, 2);
  EXPECT_EQ(t.col_folds, 2);
  EXPECT_DOUBLE_EQ(t.mapping_efficiency, 30.0 / 64);
  EXPECT_DOUBLE_EQ(t.utilization, 90.0 / (16 * 52));
}

// IS, 3×2 array (3 rows, 2 columns), M = 4, N = 2, K = 3. Aᵀ (K × M = 3 × 4)
// is stationary: 1 row fold, ceil(4/2) = 2 column folds, both full. Per fold:
// preload 3 + stream (3 + 2 + 2 - 2 = 5) = 8; two folds: 16. Mapping
// efficiency 1; utilisation 24 / (6 × 16) = 1/4.
// A TensorCore pipelines the folds of a pass: only the first pays its fill
// and drain, later ones max(T, R).
TEST(MxuPipelinedPassTest, LaterFoldsCostTheirStreamOrThePreload) {
  const MxuAnalyticEngine engine({8, 4}, WEIGHT_STATIONARY);
  // WS: K on the rows, N on the columns, M streams. 16 x 8 is 2 x 2 folds.
  auto one = engine.Run({100, 4, 8});
  auto one_pipelined = engine.RunPipelined({100, 4, 8});
  ASSERT_TRUE(one.ok() && one_pipelined.ok());
  EXPECT_EQ(one_pipelined->cycles, one->cycles) << "a single fold has nothing to overlap";
  EXPECT_EQ(one->cycles, 2 * 8 + 4 + 100 - 2);

  auto four = engine.RunPipelined({100, 8, 16});
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->folds, 4);
  EXPECT_EQ(four->cycles, (2 * 8 + 4 + 100 - 2) + 3 * 100);
  auto sequential = engine.Run({100, 8, 16});
  ASSERT_TRUE(sequential.ok());
  EXPECT_EQ(sequential->cycles, 4 * (2 * 8 + 4 + 100 - 2));

  // A stream shorter than the array waits for the next preload.
  auto short_stream = engine.RunPipelined({3, 8, 16});
  ASSERT_TRUE(short_stream.ok());
  EXPECT_EQ(short_stream->cycles, (2 * 8 + 4 + 3 - 2) + 3 * 8);
}

TEST(MxuHandWorkedTest, InputStationaryNonSquareArray) {
  ExpectCycles({3, 2}, INPUT_STATIONARY, {4, 2, 3}, 16);
  const MxuTiming t = AnalyticTiming({3, 2}, INPUT_STATIONARY, {4, 2, 3});
  EXPECT_EQ(t.folds, 2);
  EXPECT_DOUBLE_EQ(t.mapping_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(t.utilization, 0.25);
}

// A 1×1 array is a single MAC unit: every C element is its own fold, with
// K = 5 streaming cycles: 2·3 folds × 5 = 30.
TEST(MxuHandWorkedTest, SinglePeArray) {
  ExpectCycles({1, 1}, OUTPUT_STATIONARY, {2, 3, 5}, 30);
}

// SCALE-Sim v2's published count for output-stationary: a 128×128 array,
// M = 128, N = 64, K = 256 is one fold of R + C + T - 2 = 510 cycles.
TEST(MxuHandWorkedTest, OutputStationaryFoldAsScaleSimCountsIt) {
  EXPECT_EQ(AnalyticTiming({128, 128}, OUTPUT_STATIONARY, {128, 64, 256}).cycles, 510);
}

// OS, 4×4 array, M = 5, N = 4, K = 2: two row folds, the second holding one
// real row of A, still 4 + 4 + 2 - 2 = 8 cycles (padded): 16 in all.
// Mapping efficiency (16 + 4) / 32.
TEST(MxuHandWorkedTest, PartialFoldIsPadded) {
  ExpectCycles({4, 4}, OUTPUT_STATIONARY, {5, 4, 2}, 16);
  EXPECT_DOUBLE_EQ(AnalyticTiming({4, 4}, OUTPUT_STATIONARY, {5, 4, 2}).mapping_efficiency,
                   20.0 / 32);
}

// The same GEMM on each dataflow: OS maps M×N (4×4 on 4×4: 1 fold,
// 4+4+64-2 = 70); WS maps K×N (64×4: 16 folds of 8+4+4-2 = 14 → 224); IS maps
// K×M likewise (224). A long K favours output-stationary.
TEST(MxuHandWorkedTest, DataflowChoiceMatters) {
  ExpectCycles({4, 4}, OUTPUT_STATIONARY, {4, 4, 64}, 70);
  ExpectCycles({4, 4}, WEIGHT_STATIONARY, {4, 4, 64}, 224);
  ExpectCycles({4, 4}, INPUT_STATIONARY, {4, 4, 64}, 224);
}

// --- Values ---

TEST(MxuCycleEngineTest, ValuesEqualReferenceInArraySummationOrder) {
  std::mt19937 rng(1);
  for (Dataflow dataflow : {OUTPUT_STATIONARY, WEIGHT_STATIONARY, INPUT_STATIONARY}) {
    const ArrayShape array{4, 3};
    const GemmShape g{7, 5, 37};
    const std::vector<float> a = RandomValues(g.m * g.k, rng), b = RandomValues(g.k * g.n, rng);
    absl::StatusOr<MxuCycleResult> r = MxuCycleEngine(array, dataflow).Run(g, a, b);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<float> expected = ReferenceDot(g, a, b, SummationChunk(dataflow, g, array));
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(r->c[i], expected[i]) << DataflowShortName(dataflow) << " element " << i;
    }
  }
}

// The reference's chunking is not a formality: summing WS's fold sums in a
// single sequential order gives different bits somewhere.
TEST(MxuCycleEngineTest, SummationOrderIsVisible) {
  std::mt19937 rng(3);
  const GemmShape g{8, 8, 64};
  const std::vector<float> a = RandomValues(g.m * g.k, rng), b = RandomValues(g.k * g.n, rng);
  const std::vector<float> c = MxuCycleEngine({4, 4}, WEIGHT_STATIONARY).Run(g, a, b)->c;
  EXPECT_NE(c, ReferenceDot(g, a, b, g.k));
  EXPECT_EQ(c, ReferenceDot(g, a, b, 4));
}

TEST(MxuCycleEngineTest, RoundsOperandsToBf16) {
  // 1 + 2^-10 is not a bf16 (7 mantissa bits): it rounds to 1.
  const float x = 1.0f + std::ldexp(1.0f, -10);
  absl::StatusOr<MxuCycleResult> r =
      MxuCycleEngine({2, 2}, OUTPUT_STATIONARY).Run({1, 1, 1}, {x}, {x});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->c[0], 1.0f);
}

// --- The two engines agree ---

TEST(MxuEnginesAgreeTest, FiveHundredRandomShapesEveryDataflow) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int64_t> array_dim(1, 32), gemm_dim(1, 48);
  int64_t checked = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const ArrayShape array{array_dim(rng), array_dim(rng)};
    const GemmShape g{gemm_dim(rng), gemm_dim(rng), gemm_dim(rng)};
    const std::vector<float> a = RandomValues(g.m * g.k, rng), b = RandomValues(g.k * g.n, rng);
    for (Dataflow dataflow : {OUTPUT_STATIONARY, WEIGHT_STATIONARY, INPUT_STATIONARY}) {
      SCOPED_TRACE(testing::Message() << DataflowShortName(dataflow) << " array " << array.rows
                                      << "x" << array.cols << " M=" << g.m << " N=" << g.n
                                      << " K=" << g.k);
      absl::StatusOr<MxuCycleResult> cycle = MxuCycleEngine(array, dataflow).Run(g, a, b);
      absl::StatusOr<MxuTiming> analytic = MxuAnalyticEngine(array, dataflow).Run(g);
      ASSERT_TRUE(cycle.ok() && analytic.ok());
      ASSERT_EQ(cycle->timing.cycles, analytic->cycles);
      ASSERT_EQ(cycle->timing.row_folds, analytic->row_folds);
      ASSERT_EQ(cycle->timing.col_folds, analytic->col_folds);
      ASSERT_EQ(cycle->timing.macs, analytic->macs);
      ASSERT_EQ(cycle->timing.mapping_efficiency, analytic->mapping_efficiency);
      ASSERT_EQ(cycle->timing.utilization, analytic->utilization);
      ASSERT_EQ(cycle->c, ReferenceDot(g, a, b, SummationChunk(dataflow, g, array)));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1500);
}

// --- Observing the array ---

TEST(MxuCycleEngineTest, ObserverSeesEveryCycleAndPhase) {
  for (Dataflow dataflow : {OUTPUT_STATIONARY, WEIGHT_STATIONARY}) {
    const ArrayShape array{3, 4};
    const GemmShape g{5, 6, 7};
    MxuCycleEngine engine(array, dataflow);
    int64_t views = 0, preload = 0, drain = 0, macs_fired = 0, last_fold = -1;
    engine.set_observer([&](const MxuCycleView& view) {
      EXPECT_EQ(view.cycle, views++);
      last_fold = view.fold;
      if (view.phase == MxuPhase::kPreload) ++preload;
      if (view.phase == MxuPhase::kDrain) ++drain;
      for (uint8_t active : view.mac_active) macs_fired += active;
    });
    std::mt19937 rng(5);
    absl::StatusOr<MxuCycleResult> r =
        engine.Run(g, RandomValues(g.m * g.k, rng), RandomValues(g.k * g.n, rng));
    ASSERT_TRUE(r.ok());
    const MxuTiming& t = r->timing;
    EXPECT_EQ(views, t.cycles);
    EXPECT_EQ(last_fold, t.folds - 1);
    const int64_t temporal = dataflow == OUTPUT_STATIONARY ? g.k : g.m;
    // Every PE fires T times per fold, padding included.
    EXPECT_EQ(macs_fired, t.folds * array.pes() * temporal);
    EXPECT_EQ(preload, dataflow == OUTPUT_STATIONARY ? 0 : t.folds * array.rows);
    // Output-stationary drains while the next fold streams: no cycles of its own.
    EXPECT_EQ(drain, 0);
  }
}

// --- Errors ---

TEST(MxuEnginesTest, BadSizesAreErrors) {
  absl::StatusOr<MxuTiming> zero = MxuAnalyticEngine({4, 4}, WEIGHT_STATIONARY).Run({0, 4, 4});
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.status().message(), HasSubstr("M must be positive, got 0"));
  absl::StatusOr<MxuTiming> rows = MxuAnalyticEngine({-1, 4}, WEIGHT_STATIONARY).Run({4, 4, 4});
  ASSERT_FALSE(rows.ok());
  EXPECT_THAT(rows.status().message(), HasSubstr("array rows must be positive"));
  absl::StatusOr<MxuTiming> dataflow = MxuAnalyticEngine({4, 4}, DATAFLOW_UNSPECIFIED).Run({4, 4, 4});
  ASSERT_FALSE(dataflow.ok());
  EXPECT_THAT(dataflow.status().message(), HasSubstr("unknown dataflow"));
  absl::StatusOr<MxuCycleResult> operands =
      MxuCycleEngine({4, 4}, OUTPUT_STATIONARY).Run({2, 2, 2}, {1, 2, 3}, {1, 2, 3, 4});
  ASSERT_FALSE(operands.ok());
  EXPECT_THAT(operands.status().message(), HasSubstr("M×K = 4"));
}

TEST(MxuEnginesTest, RealSizedGemmAnalytically) {
  // 4096³ on a 128×128 weight-stationary MXU: 32 × 32 folds of
  // 2·128 + 128 + 4096 - 2 = 4478 cycles.
  const MxuTiming t = AnalyticTiming({128, 128}, WEIGHT_STATIONARY, {4096, 4096, 4096});
  EXPECT_EQ(t.folds, 1024);
  EXPECT_EQ(t.cycles, 1024 * 4478);
  EXPECT_NEAR(t.utilization, 4096.0 / 4478, 1e-12);
}

}  // namespace
}  // namespace systolic::device
