// Writes the framing of a profile file (chunk_format.h): the header, one
// compressed and checksummed chunk at a time, and on finishing the index
// chunk and the footer.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "core/trace/byte_sink.h"
#include "core/trace/chunk_format.h"
#include "core/trace/profile.pb.h"
#include "core/trace/zstd_codec.h"

namespace systolic::trace {

class ChunkWriter {
 public:
  ChunkWriter(ByteSink* sink, int zstd_level) : sink_(sink), codec_(zstd_level) {}

  absl::Status WriteFileHeader();
  // Compresses `raw` and writes it as one chunk holding `events` events.
  absl::Status WriteChunk(ChunkType type, absl::string_view raw, int64_t events);
  // The index chunk and the footer; nothing may be written after.
  absl::Status Finish();

  int64_t bytes_written() const { return offset_; }
  int64_t chunk_count() const { return index_.chunks_size(); }

 private:
  ByteSink* sink_;
  ZstdCodec codec_;
  int64_t offset_ = 0;
  proto::ChunkIndex index_;
  std::string stored_;
};

}  // namespace systolic::trace
