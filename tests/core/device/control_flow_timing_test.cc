// Control flow on the simulated chip: a while runs its body once per
// iteration, a conditional its taken branch, a call its callee; their events
// land on the timeline at each place they ran.
#include "core/device/control_flow_timing.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/device/run_profile.h"
#include "core/hlo/hlo_parser.h"
#include "tests/support/control_flow_programs.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

ChipSpec Chip(const std::string& name) {
  absl::StatusOr<ChipSpec> spec = LoadChipSpec(name);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

ProgramTiming Time(const std::string& text, const std::string& chip = "v4",
                   const LoweringOptions& options = {}) {
  auto module = ParseAndReturnVerifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  auto timing = TimeCompiledModule(**module, Chip(chip), options);
  EXPECT_TRUE(timing.ok()) << timing.status();
  return *std::move(timing);
}

// One f32[1024,1024] matmul, alone.
constexpr char kOneMatmul[] = R"(
HloModule one
ENTRY main {
  a = f32[1024,1024] parameter(0)
  b = f32[1024,1024] parameter(1)
  ROOT d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

// The same matmul as the body of a loop of $N iterations; $CONFIG is the
// while's backend_config (or nothing).
constexpr char kLoopOfMatmuls[] = R"(
HloModule loop
cond {
  p = (s32[], f32[1024,1024], f32[1024,1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant($N)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[1024,1024], f32[1024,1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  a = f32[1024,1024] get-tuple-element(p), index=1
  b = f32[1024,1024] get-tuple-element(p), index=2
  d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[], f32[1024,1024], f32[1024,1024]) tuple(next, d, b)
}
ENTRY main {
  a = f32[1024,1024] parameter(0)
  b = f32[1024,1024] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[1024,1024], f32[1024,1024]) tuple(zero, a, b)
  w = (s32[], f32[1024,1024], f32[1024,1024]) while(init), condition=cond, body=body$CONFIG
  ROOT r = f32[1024,1024] get-tuple-element(w), index=1
})";

std::string Loop(int n, const std::string& bound, const std::string& config = "") {
  return absl::StrReplaceAll(kLoopOfMatmuls, {{"$N", bound}, {"$CONFIG", config}});
}

const OpTiming* Row(const ProgramTiming& t, const std::string& instruction) {
  for (const OpTiming& op : t.ops) {
    if (op.instruction == instruction) return &op;
  }
  return nullptr;
}

TEST(ControlFlowTiming, AWhileOfNMatmulsTakesNTimesOneMatmul) {
  const ProgramTiming one = Time(kOneMatmul);
  const ProgramTiming loop = Time(Loop(32, "32"));
  ASSERT_GT(one.cycles, 0);
  // N bodies plus the loop's own bookkeeping (counter and condition on the
  // scalar unit), within 2%.
  EXPECT_NEAR(double(loop.cycles), 32.0 * double(one.cycles), 0.02 * 32.0 * double(one.cycles));
  EXPECT_GT(loop.cycles, 31 * one.cycles);
  EXPECT_NEAR(loop.flops, 32 * one.flops, 1e-6 * loop.flops);
  EXPECT_TRUE(loop.warnings.empty());

  const OpTiming* w = Row(loop, "w");
  ASSERT_NE(w, nullptr);
  // The loop is as busy where its body is.
  EXPECT_EQ(w->unit, Row(one, "d")->unit);
  EXPECT_EQ(w->executions, 1);
  EXPECT_TRUE(w->parent.empty());
  const OpTiming* d = Row(loop, "d");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->parent, "w");
  EXPECT_EQ(d->executions, 32);
  EXPECT_NEAR(d->flops, 32 * 2.0 * 1024 * 1024 * 1024, 1);
}

TEST(ControlFlowTiming, TheTripCountComesFromBackendConfigOrTheUsersFlag) {
  // The bound lives in a parameter: only known_trip_count or the user knows.
  const std::string unknown = absl::StrReplaceAll(
      Loop(0, "0"), {{"n = s32[] constant(0)", "n = s32[] get-tuple-element(p), index=0"}});
  const ProgramTiming guessed = Time(unknown);
  ASSERT_EQ(guessed.warnings.size(), 1u);
  EXPECT_TRUE(absl::StrContains(guessed.warnings[0], "w: trip count not found"))
      << guessed.warnings[0];
  EXPECT_TRUE(absl::StrContains(guessed.warnings[0], "--trip-count")) << guessed.warnings[0];
  EXPECT_EQ(Row(guessed, "d")->executions, 1);

  LoweringOptions eight;
  eight.unknown_trip_count = 8;
  EXPECT_EQ(Row(Time(unknown, "v4", eight), "d")->executions, 8);

  const ProgramTiming known = Time(
      absl::StrReplaceAll(unknown, {{"body=body", R"(body=body, backend_config={"known_trip_count":{"n":"5"}})"}}));
  EXPECT_TRUE(known.warnings.empty());
  EXPECT_EQ(Row(known, "d")->executions, 5);
}

TEST(ControlFlowTiming, NestedLoopsMultiplyTheirTripCounts) {
  const ProgramTiming t = Time(testing::kNestedLoops);
  // The outer loop counts 0, 2, ..., 8 below 10: five times; the inner four.
  const OpTiming* e = Row(t, "e");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->executions, 20);
  EXPECT_EQ(e->parent, "w_in");
  EXPECT_EQ(Row(t, "w_in")->executions, 5);
  EXPECT_EQ(Row(t, "w_in")->parent, "w_out");

  // Every one of the 20 exponentials is on the timeline, each at its place.
  int exps = 0;
  for (const UnitLane& lane : t.simulation.lanes) {
    if (lane.core != 0 || lane.unit.kind != UnitKind::kVector) continue;
    int64_t previous = -1;
    for (const TraceEvent& event : lane.events) {
      if (!absl::StartsWith(event.name, "e/")) continue;
      ++exps;
      EXPECT_GE(event.start_cycle, previous);
      previous = event.start_cycle;
    }
  }
  EXPECT_GT(exps, 0);
  EXPECT_EQ(exps % 20, 0) << exps;
  int outer_iterations = 0, inner_iterations = 0;
  for (const ControlFlowSpan& span : t.simulation.control_flow_spans) {
    if (span.core != 0 || !absl::StartsWith(span.label, "iteration")) continue;
    if (span.instruction == "w_out") ++outer_iterations;
    if (span.instruction == "w_in") ++inner_iterations;
  }
  EXPECT_EQ(outer_iterations, 5);
  EXPECT_EQ(inner_iterations, 20);
}

constexpr char kConditional[] = R"(
HloModule cond
heavy {
  p = (f32[1024,1024], f32[1024,1024]) parameter(0)
  a = f32[1024,1024] get-tuple-element(p), index=0
  b = f32[1024,1024] get-tuple-element(p), index=1
  ROOT d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
light {
  p = (f32[1024,1024], f32[1024,1024]) parameter(0)
  ROOT a = f32[1024,1024] get-tuple-element(p), index=0
}
ENTRY main {
  a = f32[1024,1024] parameter(0)
  b = f32[1024,1024] parameter(1)
  $PRED
  t = (f32[1024,1024], f32[1024,1024]) tuple(a, b)
  ROOT c = f32[1024,1024] conditional(pred, t, t), true_computation=heavy, false_computation=light
})";

TEST(ControlFlowTiming, AConditionalCostsItsTakenBranch) {
  const ProgramTiming one = Time(kOneMatmul);
  const ProgramTiming taken =
      Time(absl::StrReplaceAll(kConditional, {{"$PRED", "pred = pred[] constant(true)"}}));
  EXPECT_NEAR(double(taken.cycles), double(one.cycles), 0.02 * double(one.cycles));
  EXPECT_TRUE(taken.warnings.empty());
  const ProgramTiming skipped =
      Time(absl::StrReplaceAll(kConditional, {{"$PRED", "pred = pred[] constant(false)"}}));
  EXPECT_LT(skipped.cycles, one.cycles / 10);
  // Unknown predicate: the costliest branch, said so.
  const ProgramTiming unknown =
      Time(absl::StrReplaceAll(kConditional, {{"$PRED", "pred = pred[] parameter(2)"}}));
  EXPECT_NEAR(double(unknown.cycles), double(one.cycles), 0.02 * double(one.cycles));
  ASSERT_EQ(unknown.warnings.size(), 1u);
  EXPECT_TRUE(absl::StrContains(unknown.warnings[0], "costliest branch (heavy)"))
      << unknown.warnings[0];
}

// Ring attention's form: each of 4 partitions computes from its
// partition-id whether its shard runs the heavy block.
TEST(ControlFlowTiming, ABranchChosenByTheDeviceIdIsFoundPerDevice) {
  const ProgramTiming one = Time(kOneMatmul);
  auto branch_on = [](const std::string& direction, const std::string& bound) {
    return absl::StrReplaceAll(
        kConditional,
        {{"HloModule cond", "HloModule cond, num_partitions=4"},
         {"$PRED", absl::StrCat("id = u32[] partition-id()\n"
                                "  four = u32[] constant(4)\n"
                                "  axis = u32[] remainder(id, four)\n"
                                "  index = s32[] convert(axis)\n"
                                "  bound = s32[] constant(", bound, ")\n"
                                "  pred = pred[] compare(index, bound), direction=", direction)}});
  };
  // Partitions 1..3 take the matmul: it is timed, and the split is said.
  const ProgramTiming mixed = Time(branch_on("GE", "1"));
  EXPECT_NEAR(double(mixed.cycles), double(one.cycles), 0.02 * double(one.cycles));
  ASSERT_EQ(mixed.warnings.size(), 1u);
  EXPECT_TRUE(absl::StrContains(mixed.warnings[0], "depends on the device (heavy on 3 of 4 "
                                                   "devices, light on 1); timed heavy"))
      << mixed.warnings[0];
  // No partition passes the bound: the light branch, proven, no warning.
  const ProgramTiming none = Time(branch_on("GE", "4"));
  EXPECT_LT(none.cycles, one.cycles / 10);
  EXPECT_TRUE(none.warnings.empty());
}

TEST(ControlFlowTiming, LongLoopsRepeatOneIterationAndKeepTheirTotals) {
  // 10,000 iterations: a few are drawn in full, the rest are one repeated
  // event per lane whose FLOPs and bytes make up the difference.
  constexpr char kLong[] = R"(
HloModule long
cond {
  p = (s32[], f32[512,512]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10000)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[512,512]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  a = f32[512,512] get-tuple-element(p), index=1
  d = f32[512,512] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[], f32[512,512]) tuple(next, d)
}
ENTRY main {
  a = f32[512,512] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[512,512]) tuple(zero, a)
  w = (s32[], f32[512,512]) while(init), condition=cond, body=body
  ROOT r = f32[512,512] get-tuple-element(w), index=1
})";
  const ProgramTiming t = Time(kLong);
  EXPECT_EQ(Row(t, "d")->executions, 10000);
  double event_flops = 0;
  int64_t events = 0;
  bool repeated = false;
  for (const UnitLane& lane : t.simulation.lanes) {
    for (const TraceEvent& e : lane.events) {
      event_flops += e.flops;
      ++events;
      repeated = repeated || absl::StrContains(e.name, "(repeated)");
    }
  }
  EXPECT_TRUE(repeated);
  EXPECT_LT(events, 400'000);
  EXPECT_NEAR(event_flops, t.flops, 1e-9 * t.flops);
  // The matmuls, plus a counter add and a compare per iteration.
  EXPECT_NEAR(t.flops, 10000 * 2.0 * 512 * 512 * 512 + 10000 + 10001, 1e-9 * t.flops);

  // The profile shows the loop and its iterations on lanes of their own.
  CompilationResult compilation;
  compilation.module = *ParseAndReturnVerifiedModule(kLong);
  const trace::Profile profile = ProfileOfRun("long", Chip("v4"), compilation, t);
  bool control_flow_lane = false;
  for (const trace::TimelinePlane& plane : profile.timeline.planes()) {
    for (const trace::TimelineLine& line : plane.lines()) {
      control_flow_lane = control_flow_lane || absl::StrContains(line.name(), "control flow");
    }
  }
  EXPECT_TRUE(control_flow_lane);
}

TEST(ControlFlowTiming, TripCountsAreProvenFromTheInductionVariable) {
  EXPECT_EQ(Row(Time(Loop(7, "7")), "d")->executions, 7);
  EXPECT_EQ(Row(Time(Loop(0, "0")), "d")->executions, 0);
}

}  // namespace
}  // namespace systolic::device
