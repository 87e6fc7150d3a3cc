// Damaged files: each is a clear error naming what is wrong and where,
// never a crash and never a silently different profile.
#include <random>

#include "absl/strings/str_cat.h"
#include "core/trace/byte_sink.h"
#include "core/trace/chunk_format.h"
#include "core/trace/chunk_writer.h"
#include "core/trace/profile.pb.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/varint.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/synthetic_profile.h"

namespace systolic::trace {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

std::string SampleBytes() {
  Profile p = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 300});
  // Several chunks, so damage can land in any of them.
  absl::StatusOr<std::string> bytes = SerializeProfile(p, {.max_events_per_chunk = 500});
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

TEST(BrokenFile, TruncatedAtEverySixteenthIsAnError) {
  const std::string bytes = SampleBytes();
  for (int k = 0; k < 16; ++k) {
    const size_t cut = bytes.size() * k / 16;
    absl::StatusOr<Profile> read = ParseProfile(absl::string_view(bytes).substr(0, cut));
    ASSERT_FALSE(read.ok()) << "cut at " << cut;
    EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(read.status().message(), AnyOf(HasSubstr("truncated"), HasSubstr("unfinished")))
        << read.status();
    EXPECT_THAT(read.status().message(), HasSubstr("byte")) << read.status();
  }
}

TEST(BrokenFile, TruncationInsideAChunkNamesItsOffset) {
  const std::string bytes = SampleBytes();
  absl::StatusOr<Profile> read = ParseProfile(absl::string_view(bytes).substr(0, 100));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            absl::StrCat("truncated: chunk 0 at byte 16: holds ",
                         GetU64(bytes.data() + kFileHeaderSize + 8),
                         " bytes but the file ends 52 bytes after its header"));
}

TEST(BrokenFile, EveryFlippedByteIsCaught) {
  const std::string bytes = SampleBytes();
  std::mt19937 rng(7);
  // Every byte of the framing and a sample of the payloads.
  std::vector<size_t> positions;
  for (size_t i = 0; i < 64 && i < bytes.size(); ++i) positions.push_back(i);
  for (size_t i = bytes.size() - 64; i < bytes.size(); ++i) positions.push_back(i);
  for (int i = 0; i < 300; ++i) positions.push_back(rng() % bytes.size());
  for (size_t pos : positions) {
    std::string damaged = bytes;
    damaged[pos] = char(damaged[pos] ^ (1 + rng() % 255));
    absl::StatusOr<Profile> read = ParseProfile(damaged);
    ASSERT_FALSE(read.ok()) << "flip at byte " << pos << " went unnoticed";
    EXPECT_THAT(read.status().message(),
                AnyOf(HasSubstr("corrupted"), HasSubstr("truncated"), HasSubstr("unfinished"),
                      HasSubstr("wrong magic")))
        << read.status();
    // Recovery reads what it can and never crashes.
    absl::StatusOr<Profile> recovered = ParseProfile(damaged, {.recover_unfinished = true});
    (void)recovered;
  }
}

TEST(BrokenFile, ChecksumMismatchNamesTheChunk) {
  std::string bytes = SampleBytes();
  // The first payload byte of chunk 1.
  const int64_t chunk1 = kFileHeaderSize + kChunkHeaderSize + int64_t(GetU64(bytes.data() + 24));
  bytes[chunk1 + kChunkHeaderSize + 3] ^= 0x40;
  absl::StatusOr<Profile> read = ParseProfile(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            absl::StrCat("corrupted: chunk 1 at byte ", chunk1, ": checksum mismatch"));
  // Recovery keeps chunk 0.
  ReadReport report;
  absl::StatusOr<Profile> recovered = ParseProfile(bytes, {.recover_unfinished = true}, &report);
  ASSERT_TRUE(recovered.ok()) << recovered.status();
  EXPECT_EQ(report.chunk_count, 1);
  EXPECT_EQ(recovered->timeline.event_count(), 500);
  EXPECT_THAT(report.warnings[0], HasSubstr("checksum mismatch"));
}

TEST(BrokenFile, WrongMagicIsNotAProfile) {
  std::string bytes = SampleBytes();
  bytes[1] = 'X';
  absl::StatusOr<Profile> read = ParseProfile(bytes);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(read.status().message(), HasSubstr("not a Systolic profile: wrong magic bytes at byte 0"));
  read = ParseProfile("{\"traceEvents\": []}");
  EXPECT_THAT(read.status().message(), HasSubstr("{\\\"traceE"));
  read = ParseProfile("");
  EXPECT_THAT(read.status().message(), HasSubstr("truncated: the file ends at byte 0"));
}

TEST(BrokenFile, FutureVersionAsksForANewerBuild) {
  std::string bytes = SampleBytes();
  bytes.replace(0, kFileHeaderSize, EncodeFileHeader(kFormatVersion + 1));
  absl::StatusOr<Profile> read = ParseProfile(bytes);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(read.status().message(),
            absl::StrCat("format version ", kFormatVersion + 1,
                         " is newer than this build reads (versions 1 to ", kFormatVersion,
                         "): open it with a newer systolic"));
  // A version byte flipped without fixing the checksum is damage instead.
  bytes = SampleBytes();
  bytes[8] = 9;
  EXPECT_THAT(ParseProfile(bytes).status().message(), HasSubstr("checksum mismatch in the file header"));
}

// A chunk with a good checksum whose content is inconsistent.
std::string FrameChunk(const proto::Profile& chunk, bool finish = true) {
  std::string bytes;
  StringByteSink sink(&bytes);
  ChunkWriter writer(&sink, 1);
  EXPECT_TRUE(writer.WriteFileHeader().ok());
  EXPECT_TRUE(writer.WriteChunk(ChunkType::kProfile, chunk.SerializeAsString(), 0).ok());
  if (finish) {
    EXPECT_TRUE(writer.Finish().ok());
  }
  return bytes;
}

// A packed column of varints, as the codec stores event columns.
std::string Varints(std::initializer_list<uint64_t> values) {
  std::string out;
  char buffer[kMaxVarintBytes];
  for (uint64_t v : values) out.append(buffer, WriteVarint(buffer, v) - buffer);
  return out;
}

// One event: starts at `start` ps, lasts `duration` ps, named `name`.
void SetEvent(proto::Line* line, int64_t start, uint64_t duration, uint32_t name) {
  line->set_start_deltas_ps(Varints({ZigZag(start)}));
  line->set_durations_ps(Varints({duration}));
  line->set_metadata_ids(Varints({name}));
}

proto::Profile OnePlane() {
  proto::Profile chunk;
  proto::Plane* plane = chunk.mutable_timeline()->add_planes();
  plane->set_id(0);
  plane->set_name("/device:TPU:0");
  plane->add_event_metadata()->set_name("dot");
  plane->add_stat_names("flops");
  proto::Line* line = plane->add_lines();
  line->set_id(0);
  line->set_name("core 0 / MXU 0");
  SetEvent(line, 10, 5, 0);
  return chunk;
}

TEST(BrokenFile, InconsistentContentIsNamed) {
  EXPECT_TRUE(ParseProfile(FrameChunk(OnePlane())).ok());

  proto::Profile bad = OnePlane();
  SetEvent(bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0), 10, 5, 9);
  EXPECT_EQ(ParseProfile(FrameChunk(bad)).status().message(),
            "corrupted: chunk 0 at byte 16: lane 0 of plane 0, event 0: name 9 does not exist "
            "(1 names)");

  bad = OnePlane();
  bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0)->set_durations_ps(Varints({5, 1}));
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("event columns differ in length"));

  bad = OnePlane();
  bad.mutable_timeline()->mutable_planes(0)->set_id(3);
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("plane 3 comes before planes 0..2"));

  bad = OnePlane();
  SetEvent(bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0), INT64_MAX, 10, 0);
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(), HasSubstr("time out of range"));

  bad = OnePlane();
  proto::Stat* stat = bad.mutable_timeline()->mutable_planes(0)->mutable_event_metadata(0)->add_stats();
  stat->set_name_id(0);
  stat->set_string_ref(4);
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("stat string 4 of plane 0 does not exist"));

  // Stat sets and details refer to what exists.
  proto::Profile with_set = OnePlane();
  proto::Line* line = with_set.mutable_timeline()->mutable_planes(0)->mutable_lines(0);
  proto::Stat* flops = line->add_stat_sets()->add_stats();
  flops->set_name_id(0);
  flops->set_double_value(128);
  line->set_stat_set_ids(Varints({1}));
  ASSERT_TRUE(ParseProfile(FrameChunk(with_set)).ok());
  bad = with_set;
  bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0)->set_stat_set_ids(Varints({2}));
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("lane 0 of plane 0, event 0 of the chunk: stat set 2 does not exist (2 known)"));
  bad = with_set;
  bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0)->set_stat_set_ids(Varints({1, 1}));
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("stat set column holds 2 entries for 1 events"));
  bad = OnePlane();
  bad.mutable_timeline()->mutable_planes(0)->mutable_lines(0)->set_details(Varints({1}));
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("detail 1 does not exist (1 known)"));

  bad = OnePlane();
  proto::Flow* flow = bad.mutable_timeline()->add_flows();
  flow->set_id(12);
  flow->mutable_target()->set_event(5);
  EXPECT_THAT(ParseProfile(FrameChunk(bad)).status().message(),
              HasSubstr("flow 12 refers to event 5 of lane 0 of plane 0, which does not exist"));

  // Not a protobuf message at all.
  std::string bytes;
  StringByteSink sink(&bytes);
  ChunkWriter writer(&sink, 1);
  ASSERT_TRUE(writer.WriteFileHeader().ok());
  ASSERT_TRUE(writer.WriteChunk(ChunkType::kProfile, "\xff\xff\xff\xff", 0).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(ParseProfile(bytes).status().message(),
            "corrupted: chunk 0 at byte 16: the payload is not a valid profile message");
}

TEST(BrokenFile, OversizedChunkIsRefusedBeforeAllocating) {
  std::string bytes = FrameChunk(OnePlane());
  absl::StatusOr<Profile> read = ParseProfile(bytes, {.max_chunk_bytes = 4});
  EXPECT_THAT(std::string(read.status().message()), MatchesRegex(".*chunk 0 at byte 16: [0-9]+ bytes uncompressed is more than the limit of 4"));
}

}  // namespace
}  // namespace systolic::trace
