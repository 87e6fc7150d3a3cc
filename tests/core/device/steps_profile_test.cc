// Training steps profiled on the device: each program a front end compiled
// is compiled again for the chips, every compile request keeps its cause,
// and each step's program runs after the previous one on every device plane,
// ICI transfers and flows included.
#include "core/device/steps_profile.h"

#include "core/device/chip_spec_loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

// A full batch, and the smaller last batch that makes the front end compile
// again.
constexpr char kFullBatch[] = R"(
HloModule train_step
ENTRY e {
  x = f32[64,128] parameter(0)
  w = f32[128,128] parameter(1)
  y = f32[64,128] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[64,128] tanh(y)
}
)";
constexpr char kPartialBatch[] = R"(
HloModule train_step
ENTRY e {
  x = f32[16,128] parameter(0)
  w = f32[128,128] parameter(1)
  y = f32[16,128] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[16,128] tanh(y)
}
)";

// Data parallel over four replicas: the gradients are summed over the ICI.
constexpr char kReplicatedStep[] = R"(
HloModule replicated_step, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  g = f32[256,256] parameter(0)
  summed = f32[256,256] all-reduce(g), replica_groups={}, to_apply=add
  ROOT scaled = f32[256,256] multiply(summed, summed)
}
)";

trace::CompileEvent Request(int64_t step, int64_t program, bool hit, std::string cause = "",
                            int64_t compared = -1) {
  trace::CompileEvent e;
  e.step = step;
  e.program_id = program;
  e.cache_hit = hit;
  if (!hit) {
    const bool first = cause == "first compile";
    e.cause = {
        first ? trace::RecompilationKind::kFirstCompile : trace::RecompilationKind::kArgumentShape,
        std::move(cause)};
  }
  e.compared_program_id = compared;
  e.fingerprint = program == 0 ? "00000000000000aa" : "00000000000000bb";
  return e;
}

// A miss, two hits, the partial batch's miss, then the full batch again.
StepsToProfile TrainingWithAPartialBatch() {
  return {{"systolic tests", "partial batch"},
          {kFullBatch, kPartialBatch},
          {Request(0, 0, false, "first compile"), Request(1, 0, true), Request(2, 0, true),
           Request(3, 1, false, "new input shape: argument 0 (x): now f32[16,128]", 0),
           Request(4, 0, true)}};
}

ChipSpec Chip(absl::string_view name) {
  auto spec = LoadChipSpec(name);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *std::move(spec);
}

const trace::TimelineLine* FindLine(const trace::TimelinePlane& plane, absl::string_view name) {
  for (const trace::TimelineLine& line : plane.lines()) {
    if (line.name() == name) return &line;
  }
  return nullptr;
}

TEST(StepsProfile, KeepsEveryRequestWithItsCauseAndRunsTheStepsBackToBack) {
  const StepsToProfile steps = TrainingWithAPartialBatch();
  auto profile = CompileAndProfileSteps(steps, Chip("v5e"), /*slice=*/nullptr);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const trace::Profile& p = *profile;
  EXPECT_EQ(p.info.producer, "systolic tests");
  EXPECT_EQ(p.info.title, "partial batch");
  EXPECT_EQ(p.chip.name, "v5e");

  ASSERT_EQ(p.programs.size(), 2u);
  for (int64_t id = 0; id < 2; ++id) {
    EXPECT_EQ(p.programs[id].id, id);
    EXPECT_EQ(p.programs[id].fingerprint, steps.requests[id == 0 ? 0 : 3].fingerprint);
    EXPECT_GT(p.programs[id].snapshots.size(), 2u) << "a snapshot after every pass";
  }

  ASSERT_EQ(p.compile_events.size(), steps.requests.size());
  for (size_t i = 0; i < p.compile_events.size(); ++i) {
    const trace::CompileEvent& e = p.compile_events[i];
    EXPECT_EQ(e.step, steps.requests[i].step);
    EXPECT_EQ(e.program_id, steps.requests[i].program_id);
    EXPECT_EQ(e.cache_hit, steps.requests[i].cache_hit);
    EXPECT_EQ(e.cause, steps.requests[i].cause);
    EXPECT_EQ(e.compared_program_id, steps.requests[i].compared_program_id);
    // A miss took the device compiler's time; a hit took none.
    if (e.cache_hit) {
      EXPECT_EQ(e.compile_time_ns, 0) << i;
    } else {
      EXPECT_GT(e.compile_time_ns, 0) << i;
    }
  }

  ASSERT_EQ(p.runs.size(), 1u);
  const std::vector<trace::StepRecord>& records = p.runs[0].steps;
  ASSERT_EQ(records.size(), 5u);
  int64_t end_ps = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].number, int64_t(i));
    EXPECT_EQ(records[i].program_id, steps.requests[i].program_id);
    EXPECT_EQ(records[i].start_ps, end_ps) << "step " << i << " starts when the last ended";
    EXPECT_GT(records[i].duration_ps, 0);
    EXPECT_EQ(p.compile_events[i].timestamp_ns, records[i].start_ps / 1000);
    end_ps = records[i].start_ps + records[i].duration_ps;
  }
  EXPECT_EQ(p.runs[0].end_ps, end_ps);
  // The same program takes the same time at every step.
  EXPECT_EQ(records[0].duration_ps, records[4].duration_ps);

  // One chip plane: a steps lane event per step, and the units' work of
  // every step inside that step.
  ASSERT_EQ(p.timeline.plane_count(), 1);
  const trace::TimelinePlane& plane = p.timeline.plane(0);
  EXPECT_EQ(plane.chip_id(), 0);
  const trace::TimelineLine* steps_lane = FindLine(plane, "steps");
  ASSERT_NE(steps_lane, nullptr);
  ASSERT_EQ(steps_lane->size(), 5);
  for (int64_t i = 0; i < 5; ++i) {
    EXPECT_EQ(steps_lane->start_ps(i), records[i].start_ps);
    EXPECT_EQ(steps_lane->duration_ps(i), records[i].duration_ps);
  }
  int64_t unit_events = 0;
  for (const trace::TimelineLine& line : plane.lines()) {
    if (line.kind() == trace::LaneKind::kSteps) continue;
    unit_events += line.size();
    for (int64_t i = 0; i < line.size(); ++i) EXPECT_LE(line.end_ps(i), end_ps) << line.name();
  }
  EXPECT_GT(unit_events, 0);
}

TEST(StepsProfile, OnASliceEveryStepRepeatsTheTransfersOnEveryDevice) {
  auto slice = LoadSlice("v5e:2x2");
  ASSERT_TRUE(slice.ok()) << slice.status();
  const StepsToProfile steps{{"systolic tests", "replicated"},
                             {kReplicatedStep},
                             {Request(0, 0, false, "first compile"), Request(1, 0, true),
                              Request(2, 0, true)}};
  auto profile = CompileAndProfileSteps(steps, slice->spec, &*slice);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const trace::Profile& p = *profile;
  EXPECT_EQ(p.topology.shape, "2x2");
  ASSERT_EQ(p.timeline.plane_count(), 4);
  ASSERT_FALSE(p.timeline.flows().empty());
  ASSERT_EQ(p.timeline.flows().size() % 3, 0u) << "the same transfers at each of 3 steps";

  const std::vector<trace::StepRecord>& records = p.runs[0].steps;
  ASSERT_EQ(records.size(), 3u);
  const size_t per_step = p.timeline.flows().size() / 3;
  std::vector<int64_t> flows_in_step(3, 0);
  for (const trace::Flow& flow : p.timeline.flows()) {
    ASSERT_TRUE(p.timeline.Contains(flow.source));
    ASSERT_TRUE(p.timeline.Contains(flow.target));
    EXPECT_NE(flow.source.plane, flow.target.plane);
    // The all-reduce runs as a start/done pair: the start moves the data.
    EXPECT_EQ(p.timeline.EventName(flow.source), "summed-start");
    EXPECT_EQ(p.timeline.EventName(flow.target), "summed-start");
    const int64_t start = p.timeline.line(flow.source).start_ps(flow.source.event);
    for (size_t s = 0; s < records.size(); ++s) {
      if (start >= records[s].start_ps && start < records[s].start_ps + records[s].duration_ps) {
        ++flows_in_step[s];
      }
    }
  }
  for (size_t s = 0; s < 3; ++s) EXPECT_EQ(flows_in_step[s], int64_t(per_step)) << "step " << s;
}

TEST(StepsProfile, AProgramThatDoesNotParseOrFitIsAnError) {
  StepsToProfile broken = TrainingWithAPartialBatch();
  broken.programs[1] = "HloModule broken\nENTRY e {\n  ROOT r = f32[2] frobnicate()\n}\n";
  auto parsed = CompileAndProfileSteps(broken, Chip("v5e"), nullptr);
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("program 1"));

  auto two_chips = LoadSlice("v5e:2");
  ASSERT_TRUE(two_chips.ok()) << two_chips.status();
  const StepsToProfile replicated{{"systolic tests", "too small"},
                                  {kReplicatedStep},
                                  {Request(0, 0, false, "first compile")}};
  EXPECT_FALSE(CompileAndProfileSteps(replicated, two_chips->spec, &*two_chips).ok());
}

}  // namespace
}  // namespace systolic::device
