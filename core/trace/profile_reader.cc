#include "core/trace/profile_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/arena.h"
#include "core/hlo/status_macros.h"
#include "core/trace/chunk_scan.h"
#include "core/trace/profile_chunk_decoder.h"
#include "core/trace/profile.pb.h"
#include "core/trace/zstd_codec.h"

namespace systolic::trace {
namespace {

absl::Status Annotate(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

// A finished file's index must describe exactly the chunks found.
absl::Status CheckIndex(const proto::ChunkIndex& index, const ChunkScan& scan) {
  const size_t data_chunks = scan.chunks.size() - 1;
  if (size_t(index.chunks_size()) != data_chunks) {
    return absl::DataLossError(absl::StrCat("the index lists ", index.chunks_size(),
                                            " chunks but the file holds ", data_chunks));
  }
  for (size_t i = 0; i < data_chunks; ++i) {
    const proto::ChunkIndexEntry& e = index.chunks(int(i));
    const ChunkView& c = scan.chunks[i];
    if (int64_t(e.offset()) != c.offset || e.type() != c.type ||
        e.stored_size() != c.stored.size() || int64_t(e.raw_size()) != c.raw_size) {
      return absl::DataLossError(
          absl::StrCat("the index entry of chunk ", i, " disagrees with the chunk at byte ",
                       c.offset));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Profile> ParseProfile(absl::string_view bytes, const ReadOptions& options,
                                     ReadReport* report) {
  ReadReport local_report;
  ReadReport& r = report != nullptr ? *report : local_report;
  r = ReadReport{};
  r.file_bytes = int64_t(bytes.size());

  SYSTOLIC_ASSIGN_OR_RETURN(
      ChunkScan scan,
      ScanChunks(bytes, {.recover = options.recover_unfinished,
                         .max_chunk_bytes = options.max_chunk_bytes}));
  r.format_version = scan.version;
  r.finished = scan.finished;
  if (!scan.stopped_because.empty()) {
    r.warnings.push_back(absl::StrCat("recovered ", scan.chunks.size(), " chunks; ignored the last ",
                                      scan.ignored_bytes, " bytes (", scan.stopped_because, ")"));
  }

  Profile profile;
  ProfileChunkDecoder decoder(&profile);
  ZstdCodec codec;
  std::string raw;
  // Each chunk is parsed on an arena: its million small messages (a stat
  // per event) are allocated by bumping a pointer and freed at once.
  std::unique_ptr<google::protobuf::Arena> arena;
  for (const ChunkView& view : scan.chunks) {
    const std::string where = absl::StrCat("chunk ", view.number, " at byte ", view.offset, ": ");
    absl::Status status = [&]() -> absl::Status {
      int64_t raw_size = view.raw_size;
      if (raw_size < 0) {
        // Version 1 kept no size of its own; the zstd frame declares it.
        SYSTOLIC_ASSIGN_OR_RETURN(raw_size, ZstdCodec::FrameContentSize(view.stored));
        if (raw_size > options.max_chunk_bytes) {
          return absl::DataLossError(absl::StrCat("the payload declares ", raw_size,
                                                  " bytes, more than the limit of ",
                                                  options.max_chunk_bytes));
        }
      }
      SYSTOLIC_RETURN_IF_ERROR(codec.Decompress(view.stored, raw_size, &raw));
      if (view.type == uint32_t(ChunkType::kIndex)) {
        proto::ChunkIndex index;
        if (!index.ParseFromString(raw)) return absl::DataLossError("the index does not parse");
        return CheckIndex(index, scan);
      }
      if (view.type != uint32_t(ChunkType::kProfile)) {
        // A chunk kind from a newer writer of this version: its checksum is
        // good, so skip what this build does not know.
        r.warnings.push_back(absl::StrCat(where, "skipped a chunk of unknown type ", view.type));
        return absl::OkStatus();
      }
      arena = std::make_unique<google::protobuf::Arena>();
      proto::Profile* chunk = google::protobuf::Arena::CreateMessage<proto::Profile>(arena.get());
      if (!chunk->ParseFromString(raw)) {
        return absl::DataLossError("the payload is not a valid profile message");
      }
      return decoder.Merge(*chunk);
    }();
    if (status.ok()) {
      ++r.chunk_count;
      const double done = double(view.offset + int64_t(view.stored.size())) / double(std::max<size_t>(bytes.size(), 1));
      if (options.progress && !options.progress(std::min(done, 1.0))) {
        return absl::CancelledError("reading the profile was cancelled");
      }
      continue;
    }
    if (!options.recover_unfinished) return Annotate(status, absl::StrCat("corrupted: ", where));
    r.warnings.push_back(absl::StrCat("stopped at ", where, status.message()));
    break;
  }
  int64_t dropped_flows = 0;
  SYSTOLIC_RETURN_IF_ERROR(
      Annotate(decoder.Finish(options.recover_unfinished, &dropped_flows), "corrupted: "));
  r.event_count = profile.timeline.event_count();
  if (dropped_flows > 0) {
    r.warnings.push_back(
        absl::StrCat("dropped ", dropped_flows, " flows whose events were not in the file"));
  }
  return profile;
}

absl::StatusOr<Profile> ReadProfileFile(const std::string& path, const ReadOptions& options,
                                        ReadReport* report) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    const int error = errno;
    const std::string message = absl::StrCat(path, ": cannot open: ", std::strerror(error));
    return error == ENOENT ? absl::NotFoundError(message) : absl::UnavailableError(message);
  }
  // One read of the whole file: decoding is the slow part, not the disk.
  std::string bytes;
  std::error_code size_error;
  const uintmax_t size = std::filesystem::file_size(path, size_error);
  if (!size_error) {
    bytes.resize(size);
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), file.get()));
  }
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) bytes.append(buffer, n);
  if (std::ferror(file.get())) {
    return absl::UnavailableError(absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  }
  absl::StatusOr<Profile> profile = ParseProfile(bytes, options, report);
  if (!profile.ok()) return Annotate(profile.status(), absl::StrCat(path, ": "));
  return profile;
}

}  // namespace systolic::trace
