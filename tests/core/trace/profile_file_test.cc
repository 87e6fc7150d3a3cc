// Profiles written and read back: whole, streamed while growing, recovered
// after the writer was killed, and in the older format version.
#include <filesystem>
#include <fstream>
#include <map>

#include "core/trace/chunk_format.h"
#include "core/trace/partial_file.h"
#include "core/trace/profile.pb.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/zstd_codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/synthetic_profile.h"

namespace systolic::trace {
namespace {

using ::testing::AnyOf;
using ::testing::Contains;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string TempPath(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "systolic_trace_tests";
  fs::create_directories(dir);
  // Fresh for every test: leftovers of an earlier run would hide failures.
  fs::remove(dir / name);
  fs::remove(PartialFile::PartialPath((dir / name).string()));
  return (dir / name).string();
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ProfileFile, RoundTripsEverything) {
  const Profile written = testing::MakeSampleProfile();
  const std::string path = TempPath("round_trip.sysprof");
  ASSERT_TRUE(WriteProfileFile(written, path).ok());
  EXPECT_FALSE(fs::exists(PartialFile::PartialPath(path)));
  ReadReport report;
  absl::StatusOr<Profile> read = ReadProfileFile(path, {}, &report);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(report.finished);
  EXPECT_EQ(report.format_version, kFormatVersion);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(report.event_count, written.timeline.event_count());
  // Field by field first, for readable failures, then the whole.
  EXPECT_EQ(read->info, written.info);
  EXPECT_EQ(read->chip, written.chip);
  EXPECT_EQ(read->topology, written.topology);
  EXPECT_EQ(read->programs, written.programs);
  EXPECT_EQ(read->compile_events, written.compile_events);
  EXPECT_EQ(read->runs, written.runs);
  EXPECT_EQ(read->metrics, written.metrics);
  EXPECT_EQ(read->timeline.flows(), written.timeline.flows());
  ASSERT_EQ(read->timeline.plane_count(), written.timeline.plane_count());
  for (int32_t p = 0; p < written.timeline.plane_count(); ++p) {
    EXPECT_EQ(read->timeline.plane(p), written.timeline.plane(p)) << "plane " << p;
  }
  EXPECT_TRUE(*read == written);
}

TEST(ProfileFile, SnapshotsKeepProvenanceAndShardings) {
  const Profile written = testing::MakeSampleProfile({.chips = 1, .events_per_lane = 1});
  absl::StatusOr<std::string> bytes = SerializeProfile(written);
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<Profile> read = ParseProfile(*bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  const ProgramRecord& program = read->programs[0];
  ASSERT_EQ(program.snapshots.size(), 3u);
  EXPECT_EQ(program.snapshots[0].pass_name, "input");
  EXPECT_THAT(program.snapshots[0].hlo_text, HasSubstr("maximum"));
  EXPECT_EQ(program.snapshots[0].instruction_count, 6);
  EXPECT_EQ(program.snapshots[0].provenance.size(), 6u);
  EXPECT_EQ(program.snapshots[2].provenance[0].origins.size(), 3u);
  EXPECT_EQ(program.snapshots[2].provenance[0].origins[2].name, "relu");
  ASSERT_EQ(program.shardings.size(), 2u);
  EXPECT_EQ(program.shardings[0].instruction, "x");
  EXPECT_EQ(program.shardings[0].sharding, "{devices=[2,1]0,1}");
  EXPECT_EQ(program.buffer_assignment.peaks[1].memory_space, "VMEM");
}

// Names come from programs written elsewhere and may hold any bytes (an HLO
// op_name "\xff"): the profile reads back what was written, byte for byte.
TEST(ProfileFile, TextThatIsNotUtf8ReadsBack) {
  Profile written = testing::MakeSampleProfile({.chips = 1, .events_per_lane = 1});
  const std::string bytes_not_text = "caf\xff\xfe/add";
  written.info.title = bytes_not_text;
  written.programs[0].snapshots[0].hlo_text += "  // " + bytes_not_text + "\n";
  written.programs[0].snapshots[0].provenance[0].name = bytes_not_text;
  absl::StatusOr<std::string> bytes = SerializeProfile(written);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<Profile> read = ParseProfile(*bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->info.title, bytes_not_text);
  EXPECT_EQ(read->programs[0].snapshots[0].provenance[0].name, bytes_not_text);
  EXPECT_TRUE(*read == written);
}

TEST(ProfileFile, EventsSpanManyChunks) {
  const Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 1000});
  std::string bytes;
  auto writer = ProfileWriter::ToString(&bytes, {.max_events_per_chunk = 777});
  ASSERT_TRUE(writer->Close(written).ok());
  EXPECT_EQ(writer->events_written(), written.timeline.event_count());
  EXPECT_GT(writer->chunks_written(), written.timeline.event_count() / 777);
  ReadReport report;
  absl::StatusOr<Profile> read = ParseProfile(bytes, {}, &report);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(report.chunk_count, writer->chunks_written());  // the index included
  EXPECT_TRUE(*read == written);
}

// Reading says how far it is, chunk by chunk, and stops when told.
TEST(ProfileFile, ReadingReportsProgressAndCanBeStopped) {
  const Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 1000});
  std::string bytes;
  auto writer = ProfileWriter::ToString(&bytes, {.max_events_per_chunk = 777});
  ASSERT_TRUE(writer->Close(written).ok());
  std::vector<double> heard;
  ReadOptions options;
  options.progress = [&heard](double fraction) {
    heard.push_back(fraction);
    return true;
  };
  ASSERT_TRUE(ParseProfile(bytes, options).ok());
  ASSERT_EQ(int64_t(heard.size()), writer->chunks_written());
  for (size_t i = 1; i < heard.size(); ++i) EXPECT_GT(heard[i], heard[i - 1]);
  EXPECT_GT(heard.back(), 0.99);
  EXPECT_LE(heard.back(), 1.0);
  options.progress = [](double fraction) { return fraction < 0.5; };
  absl::StatusOr<Profile> stopped = ParseProfile(bytes, options);
  EXPECT_EQ(stopped.status().code(), absl::StatusCode::kCancelled);
}

TEST(ProfileFile, UnsortedEventsAreOrderedOnReading) {
  Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 100, .shuffled = true});
  absl::StatusOr<std::string> bytes = SerializeProfile(written);
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<Profile> read = ParseProfile(*bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == written);
  for (const TimelinePlane& plane : read->timeline.planes()) {
    for (const TimelineLine& line : plane.lines()) EXPECT_TRUE(line.sorted());
  }
}

// A long run: the producer flushes after every step while it keeps adding
// events, names, lanes, programs and flows.
Profile StreamSteps(ProfileWriter& writer, int steps, std::vector<int64_t>* events_after_step) {
  Profile p;
  p.info.producer = "stream test";
  TimelinePlane& chip = p.timeline.AddPlane("/device:TPU:0", PlaneKind::kDevice, 0);
  TimelinePlane& host = p.timeline.AddPlane("/host:CPU", PlaneKind::kHost, -1);
  host.AddLine("main", LaneKind::kHost);
  RunRecord& run = p.runs.emplace_back();
  run.id = 1;
  for (int s = 0; s < steps; ++s) {
    if (s % 2 == 0) {
      ProgramRecord program;
      program.id = s;
      program.name = absl::StrCat("step_fn_", s);
      p.programs.push_back(program);
      p.compile_events.push_back(
          {.timestamp_ns = s * 10,
           .step = s,
           .program_id = s,
           .fingerprint = "fp",
           .cache_hit = false,
           .compile_time_ns = 100,
           .compared_program_id = s - 2,
           .cause = {trace::RecompilationKind::kArgumentShape, "new shape"}});
    }
    // A lane that appears later in the run.
    if (s == 2) chip.AddLine("core 0 / DMA 0", LaneKind::kDma, 0, 0);
    if (s == 0) chip.AddLine("core 0 / MXU 0", LaneKind::kMxu, 0, 0);
    for (int i = 0; i < 100; ++i) {
      const int64_t t = s * 1000000 + i * 1000;
      chip.AddEvent(0, absl::StrCat("op.", s, ".", i % 7), t, 500,
                    {chip.MakeIntStat("step", s)});
      if (chip.line_count() > 1) chip.AddEvent(1, "copy", t + 200, 300);
    }
    host.AddEvent(0, "step", s * 1000000, 900000);
    if (chip.line_count() > 1) {
      p.timeline.AddFlow({uint64_t(s), "h2d", "h2d", {1, 0, s}, {0, 1, 0}, 128});
    }
    run.steps.push_back({s, s - s % 2, s * 1000000, 900000});
    p.GetOrAddMetric("ExecuteTime", MetricKind::kSamples, "ns").samples.push_back({s, 9e5});
    EXPECT_TRUE(writer.Flush(p).ok());
    if (events_after_step) events_after_step->push_back(p.timeline.event_count());
  }
  return p;
}

TEST(ProfileFile, StreamedProfileReadsBackWhole) {
  const std::string path = TempPath("stream.sysprof");
  auto writer = ProfileWriter::Create(path, {.max_events_per_chunk = 150});
  ASSERT_TRUE(writer.ok()) << writer.status();
  Profile p = StreamSteps(**writer, 6, nullptr);
  // Not closed yet: only the partial file exists.
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::exists(PartialFile::PartialPath(path)));
  ASSERT_TRUE((*writer)->Close(p).ok());
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(PartialFile::PartialPath(path)));
  absl::StatusOr<Profile> read = ReadProfileFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  p.timeline.Finalize();
  EXPECT_EQ(read->programs, p.programs);
  EXPECT_EQ(read->compile_events, p.compile_events);
  EXPECT_EQ(read->runs, p.runs);
  EXPECT_EQ(read->metrics, p.metrics);
  EXPECT_TRUE(read->timeline == p.timeline);
}

TEST(ProfileFile, KilledWriterLeavesWhatItFlushed) {
  const std::string path = TempPath("killed.sysprof");
  std::vector<int64_t> events_after_step;
  {
    auto writer = ProfileWriter::Create(path, {.max_events_per_chunk = 64});
    ASSERT_TRUE(writer.ok());
    StreamSteps(**writer, 4, &events_after_step);
    // The writer goes away without Close(), as if the process were killed.
  }
  const std::string partial = PartialFile::PartialPath(path);
  ASSERT_TRUE(fs::exists(partial));
  EXPECT_FALSE(fs::exists(path));

  absl::StatusOr<Profile> strict = ReadProfileFile(partial);
  ASSERT_FALSE(strict.ok());
  EXPECT_THAT(strict.status().message(), HasSubstr("unfinished"));
  EXPECT_THAT(strict.status().message(), HasSubstr("recovery"));

  ReadReport report;
  absl::StatusOr<Profile> recovered = ReadProfileFile(partial, {.recover_unfinished = true}, &report);
  ASSERT_TRUE(recovered.ok()) << recovered.status();
  EXPECT_FALSE(report.finished);
  EXPECT_EQ(recovered->timeline.event_count(), events_after_step.back());
  EXPECT_EQ(recovered->runs[0].steps.size(), 4u);
  EXPECT_EQ(recovered->programs.size(), 2u);

  // Cut in the middle of the last chunk: every earlier step is still there.
  const std::string bytes = ReadBytes(partial);
  for (size_t cut = bytes.size() - 1; cut > bytes.size() - 200; cut -= 37) {
    ReadReport cut_report;
    absl::StatusOr<Profile> part =
        ParseProfile(absl::string_view(bytes).substr(0, cut), {.recover_unfinished = true},
                     &cut_report);
    ASSERT_TRUE(part.ok()) << part.status();
    EXPECT_GE(part->timeline.event_count(), events_after_step[events_after_step.size() - 2]);
    EXPECT_LT(part->timeline.event_count(), events_after_step.back());
    ASSERT_FALSE(cut_report.warnings.empty());
    EXPECT_THAT(cut_report.warnings[0], AnyOf(HasSubstr("truncated"), HasSubstr("unfinished")));
  }
}

TEST(ProfileFile, OlderFormatVersionOpens) {
  // Version 1: one compressed payload after the header.
  const Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 30});
  std::string chunk_bytes;
  ASSERT_TRUE(ProfileWriter::ToString(&chunk_bytes)->Close(written).ok());
  // The same content as one message: re-read the chunks and merge them as
  // version 1 stored them.
  absl::StatusOr<Profile> v2 = ParseProfile(chunk_bytes);
  ASSERT_TRUE(v2.ok());
  std::string raw;
  {
    // A single chunk holds everything when the chunk limit is high.
    std::string single;
    ASSERT_TRUE(ProfileWriter::ToString(&single, {.max_events_per_chunk = int64_t(1) << 40})
                    ->Close(written)
                    .ok());
    const char* header = single.data() + kFileHeaderSize;
    ZstdCodec codec;
    ASSERT_TRUE(codec
                    .Decompress(absl::string_view(header + kChunkHeaderSize, GetU64(header + 8)),
                                int64_t(GetU64(header + 16)), &raw)
                    .ok());
  }
  std::string stored;
  ZstdCodec codec;
  ASSERT_TRUE(codec.Compress(raw, &stored).ok());
  std::string v1 = EncodeFileHeader(1);
  char payload_header[kV1PayloadHeaderSize];
  PutU64(payload_header, stored.size());
  PutU32(payload_header + 8, Crc32(stored));
  v1.append(payload_header, kV1PayloadHeaderSize);
  v1 += stored;

  ReadReport report;
  absl::StatusOr<Profile> read = ParseProfile(v1, {}, &report);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(report.format_version, 1u);
  EXPECT_TRUE(*read == written);
}

// A profile a version-2 build wrote (`systolic run
// samples/hlo/allgather_overlap.hlo --topology v4:4x2 --timing-only`), when
// every event kept its own stats: it reads whole, its stats shared as sets,
// and writes back in the current version unchanged.
TEST(ProfileFile, CommittedVersionTwoProfileOpens) {
  ReadReport report;
  absl::StatusOr<Profile> read =
      ReadProfileFile(SYSTOLIC_TRACE_TEST_DATA "/allgather_overlap_v2.sysprof", {}, &report);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(report.format_version, 2u);
  EXPECT_TRUE(report.finished);
  const Timeline& timeline = read->timeline;
  EXPECT_EQ(timeline.plane_count(), 8);
  EXPECT_EQ(timeline.event_count(), 664);
  EXPECT_EQ(timeline.flows().size(), 64u);
  ASSERT_EQ(read->programs.size(), 1u);
  EXPECT_EQ(read->programs[0].snapshots.size(), 20u);
  // The epilogue of the fusion's first tile on chip 0, with the stall the
  // simulator recorded.
  const TimelinePlane& chip0 = timeline.plane(0);
  bool found = false;
  for (const TimelineLine& line : chip0.lines()) {
    for (int64_t i = 0; i < line.size() && !found; ++i) {
      std::map<std::string, std::string> stats;
      for (const Stat& s : line.stats(i)) stats[chip0.stat_name(s.name_id)] = chip0.FormatStatValue(s);
      if (stats["long_name"] != "fusion/mxu m0 n0 k0 epilogue") continue;
      found = true;
      EXPECT_EQ(line.name(), "core 0 / vector");
      EXPECT_EQ(stats["stall_cycles"], "10327");
      EXPECT_EQ(stats["stall_cause"], "dependency");
      EXPECT_EQ(stats["flops"], "65536");
    }
  }
  EXPECT_TRUE(found);

  std::string again;
  ASSERT_TRUE(ProfileWriter::ToString(&again)->Close(*read).ok());
  ReadReport again_report;
  absl::StatusOr<Profile> reread = ParseProfile(again, {}, &again_report);
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_EQ(again_report.format_version, kFormatVersion);
  EXPECT_TRUE(*reread == *read);
}

TEST(ProfileFile, StatSetsAndDetailsSpanChunks) {
  // Small chunks: a set first used in a later chunk is written there.
  const Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 200});
  std::string bytes;
  ASSERT_TRUE(ProfileWriter::ToString(&bytes, {.max_events_per_chunk = 37})->Close(written).ok());
  absl::StatusOr<Profile> read = ParseProfile(bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == written);
  const TimelineLine& mxu = read->timeline.plane(0).line(0);
  ASSERT_TRUE(mxu.has_details());
  EXPECT_EQ(*read->timeline.plane(0).DetailOf(mxu, 1), "mxu m1 n1");
}

TEST(ProfileFile, UnknownChunkTypesOfThisVersionAreSkipped) {
  const Profile written = testing::MakeSampleProfile({.chips = 1, .events_per_lane = 10});
  std::string bytes = EncodeFileHeader(kFormatVersion);
  StringByteSink sink(&bytes);
  // Hand-framed: a chunk of a kind a later writer might add, then the rest.
  std::string body;
  ASSERT_TRUE(ProfileWriter::ToString(&body)->Flush(written).ok());
  std::string unknown = "future data";
  std::string stored;
  ZstdCodec codec;
  ASSERT_TRUE(codec.Compress(unknown, &stored).ok());
  char header[kChunkHeaderSize] = {};
  PutU32(header, kChunkMarker);
  PutU32(header + 4, 99);
  PutU64(header + 8, stored.size());
  PutU64(header + 16, unknown.size());
  PutU32(header + 24, Crc32(stored, Crc32(absl::string_view(header + 4, 20))));
  bytes.append(header, kChunkHeaderSize);
  bytes += stored;
  bytes += body.substr(kFileHeaderSize);
  ReadReport report;
  absl::StatusOr<Profile> read = ParseProfile(bytes, {.recover_unfinished = true}, &report);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == written);
  EXPECT_THAT(report.warnings, Contains(HasSubstr("unknown type 99")));
}

TEST(ProfileFile, MissingFileIsNotFound) {
  absl::StatusOr<Profile> read = ReadProfileFile(TempPath("does_not_exist.sysprof"));
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(read.status().message(), HasSubstr("does_not_exist.sysprof"));
}

TEST(ProfileFile, WritingIntoAMissingFolderFailsCleanly) {
  absl::Status status = WriteProfileFile(Profile(), "/nonexistent-folder/x.sysprof");
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("/nonexistent-folder/x.sysprof.partial"));
}

}  // namespace
}  // namespace systolic::trace
