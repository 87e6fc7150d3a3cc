// Loop times read back from a profile: what the graph view shows beside a
// loop and over its body.
#include "core/analysis/loop_times.h"

#include <gtest/gtest.h>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/device/run_profile.h"
#include "core/hlo/hlo_parser.h"
#include "tests/support/control_flow_programs.h"

namespace systolic::analysis {
namespace {

double SecondsOf(const device::ProgramTiming& timing, const std::string& instruction) {
  for (const device::OpTiming& op : timing.ops) {
    if (op.instruction == instruction) return op.seconds;
  }
  ADD_FAILURE() << "no row " << instruction;
  return 0;
}

TEST(LoopTimesTest, EachLoopsRunsIterationsAndTimeComeBackFromTheProfile) {
  absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec("v4");
  ASSERT_TRUE(chip.ok()) << chip.status();
  CompilationResult compilation;
  compilation.module = *ParseAndReturnVerifiedModule(testing::kNestedLoops);
  absl::StatusOr<device::ProgramTiming> timing =
      device::TimeCompiledModule(*compilation.module, *chip);
  ASSERT_TRUE(timing.ok()) << timing.status();
  const trace::Profile profile =
      device::ProfileOfRun("nested", *chip, compilation, *timing, /*steps=*/3);

  const LoopTimes loops = ComputeLoopTimes(profile, "nested");
  ASSERT_TRUE(loops.contains("w_out"));
  ASSERT_TRUE(loops.contains("w_in"));
  const LoopTime& outer = loops.at("w_out");
  const LoopTime& inner = loops.at("w_in");
  // Three steps: the outer loop ran 3 times (15 iterations), the inner one
  // 15 times (60 iterations).
  EXPECT_EQ(outer.runs, 3);
  EXPECT_EQ(outer.iterations, 15);
  EXPECT_EQ(inner.runs, 15);
  EXPECT_EQ(inner.iterations, 60);
  // The same time as the op table's, which counts one step.
  EXPECT_NEAR(double(outer.total_ps) / 3e12, SecondsOf(*timing, "w_out"),
              0.01 * SecondsOf(*timing, "w_out"));
  EXPECT_NEAR(double(inner.total_ps) / 3e12, SecondsOf(*timing, "w_in"),
              0.01 * SecondsOf(*timing, "w_in"));
  // An outer iteration holds four inner ones and the checks around them.
  EXPECT_GT(outer.per_iteration_ps(), 4 * inner.per_iteration_ps());

  EXPECT_EQ(LoopTimeInWords(LoopTime{1, 32, 64'000'000}),
            "32 iterations \u00d7 2.000 \u00b5s = 64.00 \u00b5s");
  EXPECT_EQ(LoopTimeInWords(LoopTime{4, 8, 8'000}), "4 runs, 8 iterations \u00d7 1.000 ns = 8.000 ns");
}

TEST(LoopTimesTest, ABodyAndAConditionKnowTheLoopThatRunsThem) {
  absl::StatusOr<std::unique_ptr<HloModule>> module =
      ParseAndReturnVerifiedModule(testing::kNestedLoops);
  ASSERT_TRUE(module.ok()) << module.status();
  for (const HloComputation* computation : (*module)->computations()) {
    const HloInstruction* loop = LoopRunning(*computation);
    const std::string& name = computation->name();
    if (name == "inner_body" || name == "inner_cond") {
      ASSERT_NE(loop, nullptr) << name;
      EXPECT_EQ(loop->name(), "w_in");
    } else if (name == "outer_body" || name == "outer_cond") {
      ASSERT_NE(loop, nullptr) << name;
      EXPECT_EQ(loop->name(), "w_out");
    } else {
      EXPECT_EQ(loop, nullptr) << name;
    }
  }
}

TEST(LoopTimesTest, AProfileWithoutLoopCountsHasNoLoopTimes) {
  trace::Profile profile;
  trace::TimelinePlane& plane = profile.timeline.AddPlane("/device:TPU:0", trace::PlaneKind::kDevice, 0);
  const int32_t lane = plane.AddLine("core 0 / control flow 1", trace::LaneKind::kOther, 0).id();
  plane.AddEvent(lane, "w loop \u00d732", 0, 1000, {plane.MakeStringStat("hlo_op", "w")});
  profile.timeline.Finalize();
  EXPECT_TRUE(ComputeLoopTimes(profile, "main").empty());
}

}  // namespace
}  // namespace systolic::analysis
