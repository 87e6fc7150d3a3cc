// The one device plan and the one compile-run-profile flow every front
// end calls: counts from the module or the caller, a sharded module spread
// over a given topology, a squarest slice for several devices, values
// evaluated and compared, profiles titled by their target, and
// cancellation.
#include "core/device/program_run.h"

#include "core/device/chip_spec_loader.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;

constexpr char kMatmul[] = R"(
HloModule matmul
ENTRY e {
  x = f32[128,256] parameter(0)
  w = f32[256,128] parameter(1)
  ROOT y = f32[128,128] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)";

// Sharded rows, no partition count in the header.
constexpr char kShardedRows[] = R"(
HloModule sharded_rows
ENTRY e {
  x = f32[256,128] parameter(0), sharding={devices=[4,1]0,1,2,3}
  w = f32[128,128] parameter(1), sharding={replicated}
  ROOT y = f32[256,128] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[4,1]0,1,2,3}
}
)";

constexpr char kFourReplicas[] = R"(
HloModule four_replicas, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  g = f32[64,64] parameter(0)
  ROOT summed = f32[64,64] all-reduce(g), replica_groups={}, to_apply=add
}
)";

std::unique_ptr<HloModule> Parse(const char* text) {
  auto module = ParseAndReturnVerifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return *std::move(module);
}

ChipSpec Chip(const std::string& name = "v4") {
  auto spec = LoadChipSpec(name);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

Slice Topology(const std::string& name) {
  auto slice = LoadSlice(name, "v4");
  EXPECT_TRUE(slice.ok()) << slice.status();
  return *slice;
}

TEST(DevicePlanTest, OneDeviceRunsOnOneChip) {
  auto plan = PlanDevices(*Parse(kMatmul), Chip());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->devices(), 1);
  EXPECT_FALSE(plan->slice.has_value());
}

TEST(DevicePlanTest, ReplicasOfTheModuleRunOnTheSquarestSlice) {
  auto plan = PlanDevices(*Parse(kFourReplicas), Chip());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->counts.replicas, 4);
  ASSERT_TRUE(plan->slice.has_value());
  EXPECT_EQ(plan->slice->topology.chip_count(), 4);
}

TEST(DevicePlanTest, ShardedModuleSpreadsOverAGivenTopology) {
  auto plan = PlanDevices(*Parse(kShardedRows), Chip(), {.topology = Topology("v4:2x2")});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->counts.partitions, 4);
  // Without a topology it stays on one device.
  auto alone = PlanDevices(*Parse(kShardedRows), Chip());
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_EQ(alone->devices(), 1);
}

TEST(DevicePlanTest, CallerCountsWinAndMustFit) {
  auto counts = DeviceCountsFor(*Parse(kMatmul), {.replicas = 2, .partitions = 3});
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->replicas, 2);
  EXPECT_EQ(counts->partitions, 3);
  auto too_many = DeviceCountsFor(*Parse(kFourReplicas), {.topology = Topology("v4:1x2")});
  ASSERT_FALSE(too_many.ok());
  EXPECT_THAT(too_many.status().message(), HasSubstr("do not fit on"));
  EXPECT_FALSE(DeviceCountsFor(*Parse(kMatmul), {.partitions = 0}).ok());
}

TEST(ProgramRunTest, TimesWithoutValuesByDefault) {
  auto run = CompileAndRun(Parse(kMatmul), Chip(), {});
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->on_chip.has_value());
  EXPECT_FALSE(run->on_slice.has_value());
  EXPECT_GT(run->timing().seconds, 0);
  // The dot's FLOPs, and little else.
  EXPECT_NEAR(run->timing().flops, 2.0 * 128 * 256 * 128, 0.01 * 2.0 * 128 * 256 * 128);
  EXPECT_TRUE(run->results.empty());
  EXPECT_EQ(run->TargetName(), "v4");
}

TEST(ProgramRunTest, ValuesMatchTheUncompiledModule) {
  RunRequest request;
  request.compute_values = true;
  request.compare_reference = true;
  request.seed = 7;
  auto run = CompileAndRun(Parse(kMatmul), Chip(), std::move(request));
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->results.size(), 1u);
  ASSERT_EQ(run->reference.size(), 1u);
  EXPECT_EQ(run->results[0].element_count(), 128 * 128);
  double worst = 0;
  for (int64_t i = 0; i < run->results[0].element_count(); ++i) {
    worst = std::max(worst, std::abs(run->results[0].GetAsDouble(i) -
                                     run->reference[0].GetAsDouble(i)));
  }
  EXPECT_LT(worst, 1e-3);
}

TEST(ProgramRunTest, ShardedModuleOnATopologyGathersWholeResults) {
  RunRequest request;
  request.devices.topology = Topology("v4:2x2");
  request.compute_values = true;
  request.compare_reference = true;
  auto run = CompileAndRun(Parse(kShardedRows), Chip(), std::move(request));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_TRUE(run->gathered);
  EXPECT_EQ(run->plan.counts.partitions, 4);
  ASSERT_TRUE(run->on_slice.has_value());
  ASSERT_EQ(run->results.size(), 1u);  // one replica, gathered whole
  EXPECT_EQ(run->results[0].shape().ToString(), run->reference[0].shape().ToString());
  EXPECT_EQ(run->TargetName(), "v4:2x2");
  // Each chip does a quarter of the rows.
  EXPECT_NEAR(run->timing().flops, 2.0 * 64 * 128 * 128, 0.01 * 2.0 * 64 * 128 * 128);
}

TEST(ProgramRunTest, ProfileIsTitledByItsTarget) {
  auto profile = CompileRunAndProfile(*Parse(kFourReplicas), Chip(), {}, 3, "test");
  ASSERT_TRUE(profile.ok()) << profile.status();
  EXPECT_THAT(profile->info.title, HasSubstr("four_replicas on v4:"));
  ASSERT_EQ(profile->runs.size(), 1u);
  EXPECT_EQ(profile->runs[0].steps.size(), 3u);
}

TEST(ProgramRunTest, TilesOfAKernelShareTheirStatsAndNameTheirStep) {
  constexpr char kBigMatmul[] = R"(
HloModule big_matmul
ENTRY e {
  x = bf16[2048,2048] parameter(0)
  w = bf16[2048,2048] parameter(1)
  ROOT y = bf16[2048,2048] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)";
  auto profile = CompileRunAndProfile(*Parse(kBigMatmul), Chip(), {}, 2, "test");
  ASSERT_TRUE(profile.ok()) << profile.status();
  const trace::TimelinePlane& chip = profile->timeline.plane(0);
  const trace::TimelineLine* mxu = nullptr;
  for (const trace::TimelineLine& line : chip.lines()) {
    if (line.kind() == trace::LaneKind::kMxu && line.size() >= 16) mxu = &line;
  }
  ASSERT_NE(mxu, nullptr);
  // Each tile names its step of the kernel; its name carries the instruction.
  ASSERT_TRUE(mxu->has_details());
  const std::string* step = chip.DetailOf(*mxu, 0);
  ASSERT_NE(step, nullptr);
  EXPECT_THAT(*step, ::testing::StartsWith("mxu m"));
  const trace::EventMetadata& name = chip.event_metadata(mxu->metadata_id(0));
  EXPECT_EQ(name.name, "y");
  ASSERT_EQ(name.stats.size(), 1u);
  EXPECT_EQ(chip.stat_name(name.stats[0].name_id), "hlo_op");
  // Tiles of one shape share one stat set, and both steps share them.
  EXPECT_LE(mxu->stat_set_count() * 4, mxu->size()) << mxu->stat_set_count() << " sets";
}

TEST(ProgramRunTest, StopsWhenProgressSaysSo) {
  int calls = 0;
  auto run = CompileAndRun(Parse(kMatmul), Chip(), {}, [&](double, absl::string_view) {
    ++calls;
    return false;
  });
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(calls, 1);
}

TEST(ProgramRunTest, ErrorsNameTheModule) {
  RunRequest request;
  request.devices.topology = Topology("v4:1x2");
  auto run = CompileAndRun(Parse(kFourReplicas), Chip(), std::move(request));
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.status().message(), HasSubstr("four_replicas"));
}

// Progress climbs through compiling, simulating and every chip's lanes and
// step of the timeline, and stopping while the timeline is built cancels.
TEST(ProgramRunTest, ProgressClimbsThroughEveryChipOfTheTimeline) {
  DeviceRequest devices;
  devices.topology = Topology("v4:2x2");
  std::vector<std::pair<double, std::string>> heard;
  auto profile = CompileRunAndProfile(*Parse(kFourReplicas), Chip(), devices, 3, "test",
                                      [&](double fraction, absl::string_view what) {
                                        heard.emplace_back(fraction, std::string(what));
                                        return true;
                                      });
  ASSERT_TRUE(profile.ok()) << profile.status();
  ASSERT_GE(heard.size(), 9u);  // compile, simulate, 4 chips, 3 steps, done
  for (size_t i = 1; i < heard.size(); ++i) EXPECT_GE(heard[i].first, heard[i - 1].first) << heard[i].second;
  EXPECT_EQ(heard.back().first, 1.0);
  int chips = 0;
  for (const auto& [fraction, what] : heard) chips += what.find("chip ") != std::string::npos;
  EXPECT_EQ(chips, 4);
  auto stopped = CompileRunAndProfile(*Parse(kFourReplicas), Chip(), devices, 3, "test",
                                      [](double, absl::string_view what) {
                                        return what.find("chip 2 of") == absl::string_view::npos;
                                      });
  EXPECT_EQ(stopped.status().code(), absl::StatusCode::kCancelled);
}

// Collectives that name more devices than the run is given are refused
// before compiling, in terms of devices rather than of a compiler pass.
TEST(ProgramRunTest, CollectivesSpanningMoreDevicesThanGivenAreRefused) {
  constexpr char kEightWide[] = R"(
HloModule eight_wide
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[64] parameter(0)
  ROOT r = f32[64] all-reduce(p), replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=add
}
)";
  RunRequest request;
  request.devices.replicas = 4;
  request.devices.topology = Topology("v4:2x2");
  auto run = CompileAndRun(Parse(kEightWide), Chip(), std::move(request));
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.status().message(), HasSubstr("cannot run on 4 devices"));
  EXPECT_THAT(run.status().message(), HasSubstr("names 8 ids"));
  EXPECT_THAT(run.status().message(), ::testing::Not(HasSubstr("pass ")));
}

}  // namespace
}  // namespace systolic::device
