// The op profile and roofline of a hand-built chip timeline, every figure
// worked out by hand in the comments.
#include "core/analysis/op_profile.h"

#include <gtest/gtest.h>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/hlo/hlo_parser.h"
#include "core/trace/xspace_importer.h"
#include "tests/support/xspace_builder.h"

namespace systolic::analysis {
namespace {

// Peak 1e12 FLOP/s, HBM 1e11 B/s: ridge at 10 FLOPs per byte. One 1 µs step;
// "dot" on two MXUs over [0, 0.4) and [0.2, 0.6) µs, "add" on the vector unit
// over [0.6, 0.8) µs (its FLOPs shared by its name), "copy" on a DMA engine
// over [0, 0.1) µs, and a vector event naming no instruction.
trace::Profile MakeProfile() {
  trace::Profile p;
  p.chip.peak_flops_per_second = 1e12;
  p.chip.hbm_bandwidth_bytes_per_second = 1e11;
  trace::TimelinePlane& host = p.timeline.AddPlane("/host:CPU", trace::PlaneKind::kHost, -1);
  host.AddEvent(host.AddLine("thread", trace::LaneKind::kHost).id(), "dot", 0, 5'000'000,
                {host.MakeStringStat("hlo_op", "dot")});
  trace::TimelinePlane& plane = p.timeline.AddPlane("/device:TPU:0", trace::PlaneKind::kDevice, 0);
  plane.AddEvent(plane.AddLine("steps", trace::LaneKind::kSteps).id(), "main", 0, 1'000'000);
  const int32_t mxu0 = plane.AddLine("MXU 0", trace::LaneKind::kMxu, 0, 0).id();
  const int32_t mxu1 = plane.AddLine("MXU 1", trace::LaneKind::kMxu, 0, 1).id();
  const int32_t vector = plane.AddLine("vector", trace::LaneKind::kVector, 0).id();
  const int32_t dma = plane.AddLine("DMA 0", trace::LaneKind::kDma, -1, 0).id();
  const auto stats = [&](const char* op, double flops, int64_t bytes) {
    return std::vector<trace::Stat>{plane.MakeStringStat("hlo_op", op), plane.MakeDoubleStat("flops", flops),
                             plane.MakeIntStat("bytes", bytes)};
  };
  plane.AddEvent(mxu0, "dot", 0, 400'000, stats("dot", 2e5, 10'000));
  plane.AddEvent(mxu1, "dot", 200'000, 400'000, stats("dot", 2e5, 10'000));
  plane.mutable_event_metadata(plane.InternEventName("add"))
      .stats.push_back(plane.MakeDoubleStat("flops", 1e3));
  plane.AddEvent(vector, "add", 600'000, 200'000,
                 {plane.MakeStringStat("hlo_op", "add"), plane.MakeIntStat("bytes", 4'000)});
  plane.AddEvent(vector, "idle", 800'000, 100'000);
  plane.AddEvent(dma, "copy", 0, 100'000, stats("copy", 0, 8'000));
  p.timeline.Finalize();
  return p;
}

TEST(OpProfileTest, FiguresByHand) {
  const trace::Profile profile = MakeProfile();
  absl::StatusOr<OpProfile> ops = ComputeOpProfile(profile);
  ASSERT_TRUE(ops.ok()) << ops.status();
  EXPECT_EQ(ops->chip_id, 0);
  EXPECT_EQ(ops->step_ps, 1'000'000);
  EXPECT_DOUBLE_EQ(ops->roofline.ridge_intensity, 10);
  ASSERT_EQ(ops->ops.size(), 3u);
  // Most time first: dot 0.8 µs, add 0.2 µs, copy 0.1 µs.
  EXPECT_EQ(ops->ops[0].name, "dot");
  EXPECT_EQ(ops->ops[1].name, "add");
  EXPECT_EQ(ops->ops[2].name, "copy");

  const OpStats& dot = ops->ops[0];
  EXPECT_EQ(dot.event_count, 2);
  EXPECT_EQ(dot.total_ps, 800'000);
  EXPECT_EQ(dot.wall_ps, 600'000);  // [0, 0.6) µs: the two MXUs overlap
  EXPECT_EQ(dot.first_start_ps, 0);
  EXPECT_EQ(dot.last_end_ps, 600'000);
  EXPECT_DOUBLE_EQ(dot.step_fraction, 0.6);
  EXPECT_DOUBLE_EQ(dot.flops, 4e5);
  EXPECT_EQ(dot.bytes, 20'000);
  EXPECT_DOUBLE_EQ(dot.intensity, 20);
  EXPECT_NEAR(dot.achieved_flops_per_second, 4e5 / 6e-7, 1);  // 6.67e11
  EXPECT_NEAR(dot.peak_fraction, 2.0 / 3.0, 1e-12);
  EXPECT_EQ(dot.category, OpCategory::kMxu);
  EXPECT_TRUE(dot.on_roofline);
  EXPECT_DOUBLE_EQ(dot.attainable_flops_per_second, 1e12);  // right of the ridge: the peak

  const OpStats& add = ops->ops[1];
  EXPECT_EQ(add.wall_ps, 200'000);
  EXPECT_DOUBLE_EQ(add.step_fraction, 0.2);
  EXPECT_DOUBLE_EQ(add.flops, 1e3);  // from its name's stats
  EXPECT_DOUBLE_EQ(add.intensity, 0.25);
  EXPECT_NEAR(add.achieved_flops_per_second, 5e9, 1e-3);
  EXPECT_NEAR(add.peak_fraction, 0.005, 1e-15);
  EXPECT_EQ(add.category, OpCategory::kVector);
  EXPECT_DOUBLE_EQ(add.attainable_flops_per_second, 2.5e10);  // left of it: 0.25 × 1e11

  const OpStats& copy = ops->ops[2];
  EXPECT_EQ(copy.category, OpCategory::kDma);
  EXPECT_EQ(copy.bytes, 8'000);
  EXPECT_DOUBLE_EQ(copy.intensity, 0);
  EXPECT_FALSE(copy.on_roofline);  // no FLOPs: no place on log axes

  // By unit: MXU 0.8 µs, vector 0.3 µs (the unnamed event too), DMA 0.1 µs.
  EXPECT_EQ(ops->category_ps[int(OpCategory::kMxu)], 800'000);
  EXPECT_EQ(ops->category_ps[int(OpCategory::kVector)], 300'000);
  EXPECT_EQ(ops->category_ps[int(OpCategory::kDma)], 100'000);
  EXPECT_EQ(ops->category_ps[int(OpCategory::kOther)], 0);
  EXPECT_EQ(ops->Find("add"), &ops->ops[1]);
  EXPECT_EQ(ops->Find("missing"), nullptr);

  // Self times split the 1 µs step: dot [0, 0.6) (over the copy, whose DMA
  // yields to the MXU), add [0.6, 0.8), the unnamed vector event [0.8, 0.9),
  // nothing [0.9, 1).
  EXPECT_EQ(dot.self_ps, 600'000);
  EXPECT_EQ(add.self_ps, 200'000);
  EXPECT_EQ(copy.self_ps, 0);
  EXPECT_EQ(ops->unattributed_ps, 100'000);
  EXPECT_EQ(ops->idle_ps, 100'000);
  EXPECT_EQ(ops->step_count, 1);
}

TEST(OpProfileTest, WithoutStepsTheSpanIsTheStep) {
  trace::Profile copy;
  copy.chip = MakeProfile().chip;
  trace::TimelinePlane& only = copy.timeline.AddPlane("/device:TPU:1", trace::PlaneKind::kDevice, 1);
  only.AddEvent(only.AddLine("vector", trace::LaneKind::kVector, 0).id(), "mul", 100'000, 300'000,
                {only.MakeStringStat("hlo_op", "mul")});
  copy.timeline.Finalize();
  absl::StatusOr<OpProfile> ops = ComputeOpProfile(copy, 1);
  ASSERT_TRUE(ops.ok()) << ops.status();
  EXPECT_EQ(ops->step_ps, 300'000);
  ASSERT_EQ(ops->ops.size(), 1u);
  EXPECT_DOUBLE_EQ(ops->ops[0].step_fraction, 1.0);
  EXPECT_FALSE(ops->ops[0].on_roofline);
}

TEST(OpProfileTest, MissingChipIsNotFound) {
  const trace::Profile profile = MakeProfile();
  EXPECT_EQ(ComputeOpProfile(profile, 7).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ComputeOpProfile(trace::Profile{}).status().code(), absl::StatusCode::kNotFound);
}

// A real device's profile has only its "XLA Ops" lanes: each op event,
// named after its instruction, is the op's time.
TEST(OpProfile, ARealProfilesOpLanesAreItsOps) {
  const testing::TwoProgramXSpace made = testing::MakeTwoProgramXSpace();
  absl::StatusOr<trace::Profile> profile = trace::ImportXSpace(made.space);
  ASSERT_TRUE(profile.ok()) << profile.status();
  absl::StatusOr<OpProfile> ops = ComputeOpProfile(*profile, 0);
  ASSERT_TRUE(ops.ok()) << ops.status();
  ASSERT_EQ(ops->ops.size(), 2u);
  EXPECT_EQ(ops->ops[0].name, "add.4");
  EXPECT_EQ(ops->ops[0].event_count, 3);
  EXPECT_EQ(ops->ops[0].total_ps, 900000);
  EXPECT_EQ(ops->ops[1].name, "multiply.3");
  EXPECT_EQ(ops->ops[1].total_ps, 300000);
  // The module events are not ops: their time is not counted again.
  EXPECT_EQ(ops->Find("jit_train_step(42)"), nullptr);
  EXPECT_EQ(ops->category_ps[int(OpCategory::kOther)], 1200000);
}

// An int8 dot on an MXU with an int8 mode runs past the bf16 peak: its
// share of the peak is taken against the int8 peak, so it stays within 1.
TEST(OpProfile, Int8OpsAreMeasuredAgainstTheInt8Peak) {
  auto module = ParseAndReturnVerifiedModule(R"(
HloModule int8
ENTRY main {
  a = s8[4096,4096] parameter(0)
  b = s8[4096,4096] parameter(1)
  ROOT d = s32[4096,4096] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  const device::ChipSpec v5e = device::LoadChipSpec("v5e").value();
  absl::StatusOr<trace::Profile> profile =
      device::CompileRunAndProfile(**module, v5e, {}, 1, "test");
  ASSERT_TRUE(profile.ok()) << profile.status();
  absl::StatusOr<OpProfile> ops = ComputeOpProfile(*profile);
  ASSERT_TRUE(ops.ok()) << ops.status();
  const OpStats* dot = ops->Find("d");
  ASSERT_NE(dot, nullptr);
  EXPECT_GT(dot->achieved_flops_per_second, 1.2 * profile->chip.peak_flops_per_second);
  EXPECT_DOUBLE_EQ(dot->peak_fraction, dot->achieved_flops_per_second / (2 * profile->chip.peak_flops_per_second));
  EXPECT_LE(dot->peak_fraction, 1.0);
}

}  // namespace
}  // namespace systolic::analysis
