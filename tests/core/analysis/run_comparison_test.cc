#include "core/analysis/run_comparison.h"

#include <cmath>

#include <gtest/gtest.h>

namespace systolic::analysis {
namespace {

// One chip, `steps` steps of `step_ps`; per step "dot" on the MXU for
// `dot_ps` then "add" on the vector unit for 100 ps, a DMA "copy" hidden
// under the dot, the rest idle.
trace::Profile SteppedRun(int steps, int64_t step_ps, int64_t dot_ps, const char* title) {
  trace::Profile p;
  p.info.title = title;
  p.chip.name = "v4";
  p.chip.peak_flops_per_second = 1e15;
  trace::TimelinePlane& plane = p.timeline.AddPlane("/device:TPU:0", trace::PlaneKind::kDevice, 0);
  const int32_t steps_lane = plane.AddLine("steps", trace::LaneKind::kSteps).id();
  const int32_t mxu = plane.AddLine("MXU 0", trace::LaneKind::kMxu, 0, 0).id();
  const int32_t vector = plane.AddLine("vector", trace::LaneKind::kVector, 0).id();
  const int32_t dma = plane.AddLine("DMA 0", trace::LaneKind::kDma, -1, 0).id();
  for (int s = 0; s < steps; ++s) {
    const int64_t t = s * step_ps;
    plane.AddEvent(steps_lane, "step", t, step_ps);
    plane.AddEvent(mxu, "dot", t, dot_ps,
                   {plane.MakeStringStat("hlo_op", "dot"), plane.MakeDoubleStat("flops", 1e6)});
    plane.AddEvent(dma, "copy", t, dot_ps / 2, {plane.MakeStringStat("hlo_op", "copy")});
    plane.AddEvent(vector, "add", t + dot_ps, 100, {plane.MakeStringStat("hlo_op", "add")});
  }
  p.timeline.Finalize();
  return p;
}

TEST(RunComparison, ChangesPerStepSumToTheStepTimeChange) {
  // Before: 4 steps of 1000 ps, dot 600. After: 2 steps of 1500 ps, dot 1300.
  absl::StatusOr<RunComparison> c = CompareRuns(SteppedRun(4, 1000, 600, "a"), SteppedRun(2, 1500, 1300, "b"));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->before.steps, 4);
  EXPECT_EQ(c->after.steps, 2);
  EXPECT_DOUBLE_EQ(c->before.step_ps, 1000);
  EXPECT_DOUBLE_EQ(c->after.step_ps, 1500);
  EXPECT_DOUBLE_EQ(c->before.flops, 1e6);
  EXPECT_DOUBLE_EQ(c->after.tflops(), 1e6 / 1500);
  // 1e6 FLOPs in 1500 ps is 6.67e17 FLOP/s against a peak of 1e15.
  EXPECT_DOUBLE_EQ(c->after.flop_utilization(), 1e6 / 1500e-12 / 1e15);
  EXPECT_DOUBLE_EQ(c->after.category_ps[int(OpCategory::kMxu)], 1300);
  ASSERT_FALSE(c->ops.empty());
  // Largest change first: dot +700; idle 300 -> 100 is -200; add and copy 0.
  EXPECT_EQ(c->ops[0].name, "dot");
  EXPECT_DOUBLE_EQ(c->ops[0].before_ps, 600);
  EXPECT_DOUBLE_EQ(c->ops[0].after_ps, 1300);
  EXPECT_EQ(c->ops[1].name, kIdleRow);
  EXPECT_DOUBLE_EQ(c->ops[1].delta_ps(), -200);
  double sum = 0;
  for (const OpChange& op : c->ops) sum += op.delta_ps();
  EXPECT_NEAR(sum, c->step_delta_ps(), 1e-9);
  EXPECT_DOUBLE_EQ(c->step_delta_ps(), 500);
}

TEST(RunComparison, AProfileWithoutTheChipSaysWhich) {
  trace::Profile empty;
  absl::StatusOr<RunComparison> c = CompareRuns(SteppedRun(1, 1000, 600, "a"), empty);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("the second run"), std::string::npos);
}

TEST(RunComparison, RelativeChangesScaleByTheLargestInstructionChange) {
  RunComparison c;
  c.ops = {{"dot", 100, 500}, {std::string(kIdleRow), 900, 0}, {"add", 300, 100}, {"copy", 50, 50}};
  const absl::flat_hash_map<std::string, double> changes = RelativeChanges(c);
  ASSERT_EQ(changes.size(), 2u);  // the idle row and the unchanged copy are left out
  EXPECT_DOUBLE_EQ(changes.at("dot"), 1.0);
  EXPECT_DOUBLE_EQ(changes.at("add"), -0.5);
  EXPECT_TRUE(RelativeChanges(RunComparison{}).empty());
}

}  // namespace
}  // namespace systolic::analysis
