// XSpace files as JAX / TensorFlow / PyTorch-XLA write them, built here
// plane by plane, serialised, and imported.
#include "core/trace/xspace_importer.h"

#include <fstream>

#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xplane.pb.h"
#include "core/trace/xspace_programs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/xspace_builder.h"

namespace systolic::trace {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int64_t kStartNs = 1700000000000000000;

using PlaneBuilder = ::systolic::testing::XPlaneBuilder;

// A JAX training step on one TPU and one GPU, with the host's threads.
xspace::XSpace MakeSpace() {
  xspace::XSpace space;
  space.add_hostnames("tpu-vm-0");
  space.add_warnings("profiler buffer 90% full");

  // The host plane comes first in the file, as profilers write it.
  xspace::XPlane* host = space.add_planes();
  host->set_id(0);
  host->set_name("/host:CPU");
  PlaneBuilder h(host);
  xspace::XLine* python = h.Line(1234, "python3", kStartNs);
  xspace::XEvent* pjit = h.Event(python, "PjitFunction(train_step)", 0, 2000000000);
  h.Int(pjit->mutable_stats(), "step_num", 3);
  h.Event(python, "PjRtStreamExecutorExecutable::Execute", 100000, 900000000);
  xspace::XLine* tf = h.Line(1240, "tf_Compute", kStartNs + 5);
  h.Event(tf, "ThreadpoolListener::StartRegion", 0, 1000);

  xspace::XPlane* tpu = space.add_planes();
  tpu->set_id(1);
  tpu->set_name("/device:TPU:0");
  PlaneBuilder t(tpu);
  h.Int(tpu->mutable_stats(), "unused", 0);  // stat ids of another plane: named by id
  tpu->clear_stats();
  t.Int(tpu->mutable_stats(), "peak_teraflops_per_second", 275);
  xspace::XEventMetadata& fusion = t.Metadata("fusion.12");
  fusion.set_display_name("fusion.12 (convolution)");
  t.Int(fusion.mutable_stats(), "flops", 1 << 30);
  t.Str(fusion.mutable_stats(), "long_name", "%fusion.12 = bf16[128,256] fusion(...)");
  xspace::XLine* modules = t.Line(1, "XLA Modules", kStartNs + 1000);
  xspace::XEvent* module = t.Event(modules, "jit_train_step(42)", 0, 500000000);
  t.Int(module->mutable_stats(), "program_id", 42);
  xspace::XLine* ops = t.Line(2, "XLA Ops", kStartNs + 1000);
  for (int i = 0; i < 10; ++i) {
    xspace::XEvent* e = t.Event(ops, i % 2 ? "fusion.12" : "copy.3", i * 40000000, 30000000);
    t.Str(e->mutable_stats(), "hlo_module", "jit_train_step");
    if (i % 2 == 0) t.Int(e->mutable_stats(), "bytes_accessed", 4096 * i);
  }
  // An aggregated event: a count, no time.
  xspace::XEvent* aggregated = ops->add_events();
  aggregated->set_metadata_id(t.EventId("copy.3"));
  aggregated->set_num_occurrences(12);
  xspace::XLine* steps = t.Line(3, "Steps", kStartNs + 1000);
  t.Event(steps, "3", 0, 500000000);

  xspace::XPlane* gpu = space.add_planes();
  gpu->set_id(2);
  gpu->set_name("/device:GPU:1");
  PlaneBuilder g(gpu);
  xspace::XLine* stream = g.Line(14, "Stream #14(Compute)", kStartNs + 2000);
  stream->set_display_name("Stream #14 (compute)");
  xspace::XEvent* gemm = g.Event(stream, "sm80_xmma_gemm_bf16bf16_bf16f32", 1000, 250000);
  g.Ref(gemm->mutable_stats(), "hlo_op", "dot.7");
  g.Ref(gemm->mutable_stats(), "hlo_module", "jit_train_step");
  xspace::XStat* occupancy = gemm->add_stats();
  occupancy->set_metadata_id(g.StatId("occupancy"));
  occupancy->set_double_value(0.75);
  xspace::XStat* blob = gemm->add_stats();
  blob->set_metadata_id(g.StatId("raw"));
  blob->set_bytes_value("\x01\x02");
  xspace::XEvent* unknown = stream->add_events();
  unknown->set_metadata_id(999999);  // no metadata entry
  unknown->set_offset_ps(300000);
  unknown->set_duration_ps(-5);

  xspace::XPlane* metadata = space.add_planes();
  metadata->set_id(3);
  metadata->set_name("/host:metadata");
  return space;
}

TEST(XSpaceImport, DevicePlanesBecomeChipsAndHostPlanesTheHost) {
  XSpaceImportReport report;
  absl::StatusOr<Profile> profile = ImportXSpace(MakeSpace().SerializeAsString(), &report);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const Timeline& t = profile->timeline;
  ASSERT_EQ(t.plane_count(), 3);
  EXPECT_EQ(t.plane(0).name(), "/device:TPU:0");
  EXPECT_EQ(t.plane(0).chip_id(), 0);
  EXPECT_EQ(t.plane(1).name(), "/device:GPU:1");
  EXPECT_EQ(t.plane(1).chip_id(), 1);
  EXPECT_EQ(t.plane(2).kind(), PlaneKind::kHost);
  EXPECT_EQ(report.device_planes, 2);
  EXPECT_EQ(report.host_planes, 1);
  EXPECT_THAT(report.skipped_planes, ElementsAre("/host:metadata"));
  EXPECT_EQ(report.aggregated_events_skipped, 1);
  EXPECT_EQ(report.events, 3 + 12 + 2);
  EXPECT_EQ(t.event_count(), report.events);
  EXPECT_EQ(profile->info.hostname, "tpu-vm-0");
  EXPECT_THAT(profile->info.notes, Contains(HasSubstr("profiler buffer 90% full")));
  EXPECT_EQ(profile->topology.chips.size(), 2u);

  const TimelinePlane& tpu = t.plane(0);
  ASSERT_EQ(tpu.line_count(), 3);
  EXPECT_EQ(tpu.line(0).name(), "XLA Modules");
  EXPECT_EQ(tpu.line(0).kind(), LaneKind::kModules);
  EXPECT_EQ(tpu.line(1).kind(), LaneKind::kOps);
  EXPECT_EQ(tpu.line(2).kind(), LaneKind::kSteps);
  EXPECT_EQ(t.plane(1).line(0).name(), "Stream #14 (compute)");
  EXPECT_EQ(t.plane(2).line(0).kind(), LaneKind::kHost);
}

TEST(XSpaceImport, TimesAreRelativeToTheEarliestLine) {
  absl::StatusOr<Profile> profile = ImportXSpace(MakeSpace());
  ASSERT_TRUE(profile.ok());
  const Timeline& t = profile->timeline;
  EXPECT_EQ(t.origin_unix_ns(), kStartNs);
  const TimelineLine& ops = t.plane(0).line(1);
  ASSERT_EQ(ops.size(), 10);
  // Line starts 1000 ns after the origin; op 3 at 120 us into the line.
  EXPECT_EQ(ops.start_ps(3), 1000 * 1000 + 3 * 40000000);
  EXPECT_EQ(ops.duration_ps(3), 30000000);
  const TimelineLine& host_tf = t.plane(2).line(1);
  EXPECT_EQ(host_tf.start_ps(0), 5000);
  // A negative duration is clamped to an instant.
  const TimelineLine& stream = t.plane(1).line(0);
  EXPECT_EQ(stream.duration_ps(1), 0);
  EXPECT_EQ(t.plane(1).event_metadata(stream.metadata_id(1)).name, "event#999999");
}

TEST(XSpaceImport, StatsKeepTheirNamesAndValues) {
  absl::StatusOr<Profile> profile = ImportXSpace(MakeSpace());
  ASSERT_TRUE(profile.ok());
  const TimelinePlane& tpu = profile->timeline.plane(0);
  const TimelineLine& ops = tpu.line(1);
  const EventMetadata& fusion = tpu.event_metadata(ops.metadata_id(1));
  EXPECT_EQ(fusion.name, "fusion.12");
  EXPECT_EQ(fusion.display_name, "fusion.12 (convolution)");
  ASSERT_EQ(fusion.stats.size(), 2u);
  EXPECT_EQ(tpu.stat_name(fusion.stats[0].name_id), "flops");
  EXPECT_EQ(fusion.stats[0].int64_value, 1 << 30);
  EXPECT_EQ(tpu.FormatStatValue(fusion.stats[1]), "%fusion.12 = bf16[128,256] fusion(...)");
  ASSERT_EQ(ops.stats(2).size(), 2u);
  EXPECT_EQ(tpu.stat_name(ops.stats(2)[1].name_id), "bytes_accessed");
  EXPECT_EQ(ops.stats(2)[1].int64_value, 4096 * 2);
  ASSERT_EQ(tpu.stats().size(), 1u);
  EXPECT_EQ(tpu.stat_name(tpu.stats()[0].name_id), "peak_teraflops_per_second");

  const TimelinePlane& gpu = profile->timeline.plane(1);
  absl::Span<const Stat> gemm = gpu.line(0).stats(0);
  ASSERT_EQ(gemm.size(), 3u);  // the bytes stat is not kept
  EXPECT_EQ(gpu.stat_name(gemm[0].name_id), "hlo_op");
  EXPECT_EQ(gpu.FormatStatValue(gemm[0]), "dot.7");  // a ref_value resolved
  EXPECT_EQ(gpu.FormatStatValue(gemm[1]), "jit_train_step");
  EXPECT_DOUBLE_EQ(gemm[2].double_value, 0.75);
}

TEST(XSpaceImport, HloNamesStaySearchable) {
  absl::StatusOr<Profile> profile = ImportXSpace(MakeSpace());
  ASSERT_TRUE(profile.ok());
  const Timeline& t = profile->timeline;
  // A GPU kernel found by the hlo_op it ran.
  std::vector<EventRef> found = t.Search("dot.7");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(t.EventName(found[0]), "sm80_xmma_gemm_bf16bf16_bf16f32");
  // TPU ops by their names; every op and the GPU kernel by module.
  EXPECT_EQ(t.Search("fusion.12").size(), 5u);
  EXPECT_EQ(t.Search("jit_train_step").size(), 10u + 1 + 1);
}

TEST(XSpaceImport, ImportedProfileSavesAndReadsBack) {
  absl::StatusOr<Profile> profile = ImportXSpace(MakeSpace());
  ASSERT_TRUE(profile.ok());
  absl::StatusOr<std::string> bytes = SerializeProfile(*profile);
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<Profile> read = ParseProfile(*bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == *profile);
}

TEST(XSpaceImport, NotAnXSpaceIsAnError) {
  absl::StatusOr<Profile> profile = ImportXSpace(absl::string_view("\x0a\xff\xff\xff\xff garbage"));
  EXPECT_EQ(profile.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(profile.status().message(), HasSubstr("not an XSpace"));
  EXPECT_EQ(ImportXSpaceFile("/nonexistent/x.xplane.pb").status().code(),
            absl::StatusCode::kNotFound);
}

// The metadata plane's HloProtos become the profile's programs, ids kept.
TEST(XSpacePrograms, TheMetadataPlanesProtosBecomeThePrograms) {
  testing::TwoProgramXSpace made = testing::MakeTwoProgramXSpace();
  absl::StatusOr<Profile> profile = ImportXSpace(made.space);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const XSpaceProgramsReport report = AddXSpacePrograms(made.space, *profile);
  EXPECT_EQ(report.programs, 2);
  ASSERT_EQ(profile->programs.size(), 2u);
  // In id order: the fingerprint above 2^63 is negative as an int64.
  const ProgramRecord& eval = profile->programs[0];
  const ProgramRecord& train = profile->programs[1];
  EXPECT_EQ(eval.id, made.eval_id);
  EXPECT_EQ(eval.name, "jit_eval_step");
  EXPECT_EQ(train.id, made.train_id);
  EXPECT_EQ(train.name, "jit_train_step");
  ASSERT_EQ(train.snapshots.size(), 1u);
  EXPECT_EQ(train.snapshots[0].pass_name, "after_optimizations");
  EXPECT_EQ(train.snapshots[0].instruction_count, 4);
  EXPECT_THAT(train.snapshots[0].hlo_text, HasSubstr("%multiply.3 = f32[8]{0} multiply("));
  EXPECT_EQ(eval.snapshots[0].instruction_count, 2);
  // The cut-off proto is named, with its program, and the rest still loads.
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_THAT(report.errors[0], HasSubstr("/host:metadata: program 7 (jit_broken(7))"));
  EXPECT_THAT(report.errors[0], HasSubstr("truncated or corrupt"));
  EXPECT_THAT(profile->info.notes, Contains(report.errors[0]));
  // A second read of the same plane adds nothing twice.
  EXPECT_EQ(AddXSpacePrograms(made.space, *profile).programs, 0);
  EXPECT_EQ(profile->programs.size(), 2u);
}

TEST(XSpacePrograms, AFileImportsWithItsProgramsAndSavesThem) {
  testing::TwoProgramXSpace made = testing::MakeTwoProgramXSpace();
  const std::string path = ::testing::TempDir() + "/two_programs.xplane.pb";
  {
    std::ofstream out(path, std::ios::binary);
    out << made.space.SerializeAsString();
  }
  XSpaceImportReport report;
  XSpaceProgramsReport programs;
  absl::StatusOr<Profile> profile = ImportXSpaceFileWithPrograms(path, &report, &programs);
  ASSERT_TRUE(profile.ok()) << profile.status();
  EXPECT_EQ(report.device_planes, 2);
  EXPECT_EQ(programs.programs, 2);
  absl::StatusOr<std::string> bytes = SerializeProfile(*profile);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<Profile> read = ParseProfile(*bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == *profile);
  ASSERT_NE(read->FindProgram(made.eval_id), nullptr);
  EXPECT_EQ(read->FindProgram(made.eval_id)->name, "jit_eval_step");
}

TEST(XSpacePrograms, ASpaceWithoutProtosHasNoPrograms) {
  xspace::XSpace space = MakeSpace();  // its metadata plane is empty
  absl::StatusOr<Profile> profile = ImportXSpace(space);
  ASSERT_TRUE(profile.ok());
  const XSpaceProgramsReport report = AddXSpacePrograms(space, *profile);
  EXPECT_EQ(report.programs, 0);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(profile->programs.empty());
}

}  // namespace
}  // namespace systolic::trace
