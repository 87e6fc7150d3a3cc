// What the recompilations, sharding and memory views read from the core:
// module diffs, the recompilation report, tensors over chips, memory over
// program order and the topology of a program file.
#include <algorithm>

#include "core/analysis/link_traffic.h"
#include "core/analysis/memory_timeline.h"
#include "core/analysis/module_text_diff.h"
#include "core/analysis/program_profile.h"
#include "core/analysis/recompilation_report.h"
#include "core/analysis/tensor_layout.h"
#include "core/analysis/unit_utilization.h"
#include "core/compiler/buffer_assignment.h"
#include "core/device/record_buffer_assignment.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "core/trace/device_topology.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

constexpr char kSharded[] = R"(
HloModule sharded, num_partitions=4
ENTRY %main (x: f32[8,16], w: f32[16,4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}
  %w = f32[16,4]{1,0} parameter(1), sharding={devices=[1,4]<=[4]}
  %neg = f32[8,16]{1,0} negate(f32[8,16]{1,0} %x)
  %exp = f32[8,16]{1,0} exponential(f32[8,16]{1,0} %neg)
  ROOT %dot = f32[8,4]{1,0} dot(f32[8,16]{1,0} %exp, f32[16,4]{1,0} %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)";

TEST(ModuleTextDiff, MarksChangedLinesOnly) {
  const ModuleTextDiff diff = DiffModuleText("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n");
  EXPECT_EQ(diff.removed, 1);
  EXPECT_EQ(diff.added, 2);
  ASSERT_EQ(diff.lines.size(), 6u);
  EXPECT_EQ(diff.lines[1].kind, DiffLine::Kind::kRemoved);
  EXPECT_EQ(diff.lines[1].text, "b");
  EXPECT_EQ(diff.lines[2].kind, DiffLine::Kind::kAdded);
  EXPECT_EQ(diff.lines[5].text, "e");
  EXPECT_EQ(diff.lines[5].after_line, 4);
  EXPECT_TRUE(DiffModuleText("x\ny", "x\ny\n").identical());
  EXPECT_EQ(FormatDiff(DiffModuleText("1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n5\nsix\n"), 1),
            "…\n  5\n- 6\n+ six\n");
}

trace::Profile ProfileWithCompiles() {
  trace::Profile p;
  p.programs.push_back({1, "train_step", "fp1", {}, {}, {}});
  p.programs.push_back({2, "train_step", "fp2", {}, {}, {}});
  p.programs.push_back({3, "train_step", "fp3", {}, {}, {}});
  // timestamp, step, program, fingerprint, hit, compile time, cause, compared program.
  auto request = [](int64_t ts, int64_t step, int64_t program, const std::string& fingerprint,
                    bool hit, int64_t compile_ns, trace::RecompilationCause cause,
                    int64_t compared) {
    trace::CompileEvent e;
    e.timestamp_ns = ts;
    e.step = step;
    e.program_id = program;
    e.fingerprint = fingerprint;
    e.cache_hit = hit;
    e.compile_time_ns = compile_ns;
    e.cause = std::move(cause);
    e.compared_program_id = compared;
    return e;
  };
  using K = trace::RecompilationKind;
  p.compile_events = {
      request(10, 0, 1, "fp1", false, 1000,
              {K::kFirstCompile, "never seen: first compile of 'train_step'"}, -1),
      request(20, 1, 1, "fp1", true, 0, {}, -1),
      request(30, 2, 2, "fp2", false, 3000,
              {K::kArgumentShape, "argument 0 (x): now f32[16,128], before f32[8,128]", 0, -1,
               "f32[8,128]", "f32[16,128]"},
              1),
      request(40, 3, 3, "fp3", false, 2000,
              {K::kArgumentShape, "argument 0 (x): now f32[24,128], before f32[16,128]", 0, -1,
               "f32[16,128]", "f32[24,128]"},
              2),
      request(50, 4, 3, "fp3", true, 0, {}, -1),
  };
  return p;
}

TEST(RecompilationReport, CountsPerStepAndNamesTheTopCause) {
  const RecompilationReport report = ReportRecompilations(ProfileWithCompiles());
  EXPECT_EQ(report.misses, 3);
  EXPECT_EQ(report.hits, 2);
  EXPECT_EQ(report.recompiles, 2);
  ASSERT_EQ(report.steps.size(), 5u);
  EXPECT_EQ(report.steps[2], (StepCompiles{2, 1, 0, 3000}));
  EXPECT_EQ(report.steps[4], (StepCompiles{4, 0, 1, 0}));
  ASSERT_FALSE(report.recompile_causes.empty());
  EXPECT_EQ(report.recompile_causes[0].kind, "argument shape");
  EXPECT_EQ(report.recompile_causes[0].count, 2);
  EXPECT_TRUE(report.keeps_recompiling);
  EXPECT_NE(report.banner.find("train_step keeps recompiling"), std::string::npos) << report.banner;
  EXPECT_NE(report.banner.find("now f32[24,128]"), std::string::npos) << report.banner;
}

TEST(RecompilationReport, OneRecompileIsNotABanner) {
  trace::Profile p = ProfileWithCompiles();
  p.compile_events.pop_back();
  p.compile_events.pop_back();
  const RecompilationReport report = ReportRecompilations(p);
  EXPECT_EQ(report.recompiles, 1);
  EXPECT_FALSE(report.keeps_recompiling);
  EXPECT_TRUE(report.banner.empty());
  const ComparedPrograms programs = ProgramsOfMiss(p, p.compile_events[2]);
  ASSERT_NE(programs.now, nullptr);
  ASSERT_NE(programs.before, nullptr);
  EXPECT_EQ(programs.before->id, 1);
}

TEST(RecompilationReport, CauseKindsComeFromTheKindNotTheWords) {
  auto kind = [](trace::RecompilationKind k, const std::string& words, bool hit = false) {
    trace::CompileEvent e;
    e.cache_hit = hit;
    e.cause = {k, words};
    return trace::CauseKindOf(e);
  };
  using K = trace::RecompilationKind;
  EXPECT_EQ(kind(K::kNone, "", true), "cache hit");
  EXPECT_EQ(kind(K::kFirstCompile, "never seen: first compile of 'f'"), "first compile");
  EXPECT_EQ(kind(K::kArgumentSharding, "argument 1 (w) sharding: now {replicated}"), "argument sharding");
  // Words that read like another kind do not change the kind.
  EXPECT_EQ(kind(K::kChangedConstant, "instruction count: now 5, before 4"), "changed constant");
  EXPECT_EQ(kind(K::kDifferentInstruction, "3 of 9 instructions differ"), "different instruction");
  EXPECT_EQ(kind(K::kOpSequence, "different op sequence at op 3 `tanh`: before op 3 `exp`"),
            "different op sequence");
  // A miss from a profile that did not record its kind.
  EXPECT_EQ(kind(K::kNotRecorded, "argument 0: now f32[4], before f32[8]"), "recompile");
}

TEST(RecompilationReport, CausesWithKindsSayTheKindOnce) {
  auto with_kind = [](trace::RecompilationKind k, const std::string& words, bool hit = false) {
    trace::CompileEvent e;
    e.cache_hit = hit;
    e.cause = {k, words};
    return trace::CauseWithKind(e);
  };
  using K = trace::RecompilationKind;
  EXPECT_EQ(with_kind(K::kNone, "", true), "cache hit");
  EXPECT_EQ(with_kind(K::kFirstCompile, ""), "first compile — not in the cache");
  EXPECT_EQ(with_kind(K::kArgumentShape, "argument 1 (w): now f32[4], before f32[8]"),
            "argument shape — argument 1 (w): now f32[4], before f32[8]");
  // Causes that lead with their kind already.
  EXPECT_EQ(with_kind(K::kChangedConstant, "changed constant: now \"c = 2\", before \"c = 1\""),
            "changed constant: now \"c = 2\", before \"c = 1\"");
}

TEST(TensorLayout, DescriptionsSayTilesReplicasAndPerReplicaValues) {
  auto module = ParseAndReturnUnverifiedModule(kSharded);
  ASSERT_TRUE(module.ok()) << module.status();
  const HloComputation& entry = *(*module)->entry_computation();
  absl::StatusOr<TensorLayout> x = LayoutTensor(*entry.parameter_instruction(0), 4);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(DescribeTensorLayout(*x), "2 distinct tiles over 4 chips: 2 copies of each.");
  absl::StatusOr<TensorLayout> neg = LayoutTensor(*entry.root_instruction()->operand(0)->operand(0), 4);
  ASSERT_TRUE(neg.ok());
  EXPECT_EQ(DescribeTensorLayout(*neg), "Every chip holds the whole tensor (replicated).");
  // A data-parallel program: an unsharded value is each replica's own.
  (*module)->set_replica_count(4);
  (*module)->set_num_partitions(1);
  neg = LayoutTensor(*entry.root_instruction()->operand(0)->operand(0), 4);
  ASSERT_TRUE(neg.ok());
  EXPECT_EQ(DescribeTensorLayout(*neg),
            "Each of the 4 replicas holds its own f32[8,16] (the program runs once per replica; "
            "values may differ).");
}

TEST(TensorLayout, TheLayoutStageIsTheOneBeforePartitioning) {
  auto program_of = [](std::vector<std::string> passes) {
    trace::ProgramRecord program;
    for (std::string& pass : passes) {
      trace::ModuleSnapshot snapshot;
      snapshot.pass_name = std::move(pass);
      program.snapshots.push_back(std::move(snapshot));
    }
    return program;
  };
  // Partitioned: after propagation every value has its layout; after the
  // partitioner values are shards.
  EXPECT_EQ(LayoutStageOf(program_of({"input", "sharding-propagation", "spmd-partitioner",
                                      "call-inliner", "scheduler"})),
            1);
  // Not partitioned: what ran.
  EXPECT_EQ(LayoutStageOf(program_of({"input", "call-inliner", "scheduler"})), 2);
  EXPECT_EQ(LayoutStageOf(program_of({"input"})), 0);
  EXPECT_EQ(LayoutStageOf(program_of({})), -1);
}

TEST(TensorLayout, ReplicasShareATileAndColumnsSplit) {
  auto module = ParseAndReturnUnverifiedModule(kSharded);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<const HloInstruction*> tensors = ShardableTensors(**module);
  ASSERT_GE(tensors.size(), 2u);
  EXPECT_EQ(tensors[0]->name(), "x");
  EXPECT_EQ(tensors[1]->name(), "w");
  absl::StatusOr<TensorLayout> x = LayoutTensor(*tensors[0], 4);
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x->distinct_tiles, 2);
  EXPECT_EQ(x->tile_grid, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(x->devices_of_tile[1], (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(x->devices[3].tile.dimensions, (std::vector<int64_t>{4, 16}));
  absl::StatusOr<TensorLayout> w = LayoutTensor(*tensors[1], 4);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->distinct_tiles, 4);
  EXPECT_EQ(w->devices[2].tile.offsets, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(w->devices[2].tile.bytes, 16 * 1 * 4);
}

TEST(MemoryTimeline, PeakIsTheBufferAssignmentsPeak) {
  auto module = ParseAndReturnUnverifiedModule(kSharded);
  ASSERT_TRUE(module.ok());
  absl::StatusOr<BufferAssignment> assignment = BufferAssignment::Run(**module);
  ASSERT_TRUE(assignment.ok()) << assignment.status();
  const trace::BufferAssignmentRecord record = device::RecordBufferAssignment(*assignment);
  const MemoryTimeline timeline = MemoryOverProgramOrder(record);
  EXPECT_EQ(timeline.peak_bytes, assignment->peak_bytes());
  EXPECT_EQ(int64_t(timeline.allocated_bytes.size()), assignment->program_length());
  EXPECT_EQ(timeline.allocated_bytes, assignment->LiveBytes(0));
  ASSERT_FALSE(timeline.live_at_peak.empty());
  for (size_t i = 1; i < timeline.live_at_peak.size(); ++i) {
    EXPECT_GE(timeline.live_at_peak[i - 1].size_bytes, timeline.live_at_peak[i].size_bytes);
  }
  int64_t sum = 0;
  for (const trace::BufferRecord& b : timeline.live_at_peak) sum += b.size_bytes;
  EXPECT_GE(sum, timeline.peak_bytes);
  EXPECT_EQ(MemorySpacesOf(record), (std::vector<std::string>{"HBM"}));
}

TEST(DeviceTopology, NearlySquareTorus) {
  const trace::TopologyRecord eight = trace::TopologyForDevices(8);
  EXPECT_EQ(eight.shape, "4x2");
  EXPECT_EQ(eight.wraparound, (std::vector<bool>{true, false}));
  EXPECT_EQ(eight.chips[5].coordinates, (std::vector<int32_t>{1, 1}));
  // x: 2 links each way per chip on a ring of 4; y: one neighbour.
  EXPECT_EQ(eight.links.size(), 8u * 3u);
  EXPECT_EQ(trace::TopologyForDevices(7).shape, "7");
  EXPECT_EQ(trace::TopologyForDevices(16).shape, "4x4");
}

TEST(LinkTraffic, PairsAddBothDirectionsAndScaleToTheBusiest) {
  trace::TopologyRecord ring = trace::TopologyForDevices(5);  // a ring: 0-1-2-3-4-0
  for (trace::TopologyLink& link : ring.links) {
    // 0 <-> 1 carries 3 MiB one way and 1 MiB back; 1 -> 2 carries 1 MiB.
    if (link.source_chip == 0 && link.target_chip == 1) link.bytes = 3 << 20, link.busy_ps = 70;
    if (link.source_chip == 1 && link.target_chip == 0) link.bytes = 1 << 20, link.busy_ps = 20;
    if (link.source_chip == 1 && link.target_chip == 2) link.bytes = 1 << 20, link.busy_ps = 20;
  }
  const LinkTrafficMap traffic(ring);
  EXPECT_EQ(traffic.busiest_bytes(), 4 << 20);
  EXPECT_EQ(traffic.busiest_busy_ps(), 70);
  EXPECT_EQ(traffic.Between(1, 0, 0).bytes, 4 << 20);
  EXPECT_EQ(traffic.Between(0, 1, 0).busy_ps, 70);
  EXPECT_DOUBLE_EQ(traffic.Share(2, 1, 0), 0.25);
  EXPECT_DOUBLE_EQ(traffic.Share(2, 3, 0), 0);
  EXPECT_DOUBLE_EQ(LinkTrafficMap(trace::TopologyForDevices(5)).Share(0, 1, 0), 0);
}

TEST(UnitUtilization, BucketsHoldTheShareOfAKindsUnitsBusy) {
  trace::Timeline timeline;
  trace::TimelinePlane& plane = timeline.AddPlane("/device:TPU:0", trace::PlaneKind::kDevice, 0);
  plane.AddLine("steps", trace::LaneKind::kSteps).Append(0, 100, plane.InternEventName("step"));
  const int32_t mxu0 = plane.AddLine("core 0 / MXU 0", trace::LaneKind::kMxu, 0, 0).id();
  plane.AddLine("core 0 / MXU 1", trace::LaneKind::kMxu, 0, 1);
  const int32_t vector = plane.AddLine("core 0 / vector", trace::LaneKind::kVector, 0).id();
  const int32_t mxu_core1 = plane.AddLine("core 1 / MXU 0", trace::LaneKind::kMxu, 1, 0).id();
  plane.AddEvent(mxu0, "dot", 0, 50);
  plane.AddEvent(mxu0, "dot/part", 10, 20);  // nested: counted once
  plane.AddEvent(vector, "add", 0, 100);
  plane.AddEvent(mxu_core1, "dot", 75, 25);
  timeline.Finalize();

  const UnitUtilization u = UnitUtilizationOf(timeline, 0, 4);
  EXPECT_EQ(u.start_ps, 0);
  EXPECT_EQ(u.bucket_ps, 25);
  ASSERT_EQ(u.series.size(), 3u);
  const UtilizationSeries& mxu = u.series[0];
  EXPECT_EQ(mxu.name, "core 0 · MXU");
  EXPECT_EQ(mxu.units, 2);
  EXPECT_EQ(mxu.busy, (std::vector<double>{0.5, 0.5, 0, 0}));
  EXPECT_DOUBLE_EQ(mxu.mean, 0.25);
  EXPECT_EQ(u.series[1].kind, trace::LaneKind::kVector);
  EXPECT_EQ(u.series[1].busy, (std::vector<double>{1, 1, 1, 1}));
  EXPECT_EQ(u.series[2].core, 1);
  EXPECT_EQ(u.series[2].busy, (std::vector<double>{0, 0, 0, 1}));
  EXPECT_TRUE(UnitUtilizationOf(timeline, 3, 4).series.empty());
}

TEST(ProgramProfile, ProgramFileGetsChipsAndMemory) {
  auto module = ParseAndReturnUnverifiedModule(kSharded);
  ASSERT_TRUE(module.ok());
  const trace::Profile profile = ProfileOfModules({module->get()}, "sharded.hlo");
  EXPECT_EQ(profile.topology.chip_count(), 4);
  EXPECT_FALSE(profile.programs[0].buffer_assignment.empty());
}

}  // namespace
}  // namespace systolic::analysis
