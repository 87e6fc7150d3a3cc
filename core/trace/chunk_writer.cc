#include "core/trace/chunk_writer.h"

#include "core/hlo/status_macros.h"

namespace systolic::trace {

absl::Status ChunkWriter::WriteFileHeader() {
  const std::string header = EncodeFileHeader(kFormatVersion);
  SYSTOLIC_RETURN_IF_ERROR(sink_->Write(header));
  offset_ += int64_t(header.size());
  return absl::OkStatus();
}

absl::Status ChunkWriter::WriteChunk(ChunkType type, absl::string_view raw, int64_t events) {
  SYSTOLIC_RETURN_IF_ERROR(codec_.Compress(raw, &stored_));
  char header[kChunkHeaderSize] = {};
  PutU32(header, kChunkMarker);
  PutU32(header + 4, uint32_t(type));
  PutU64(header + 8, stored_.size());
  PutU64(header + 16, raw.size());
  uint32_t crc = Crc32(absl::string_view(header + 4, 20));
  PutU32(header + 24, Crc32(stored_, crc));
  SYSTOLIC_RETURN_IF_ERROR(sink_->Write(absl::string_view(header, kChunkHeaderSize)));
  SYSTOLIC_RETURN_IF_ERROR(sink_->Write(stored_));

  proto::ChunkIndexEntry* entry = index_.add_chunks();
  entry->set_offset(uint64_t(offset_));
  entry->set_type(uint32_t(type));
  entry->set_stored_size(stored_.size());
  entry->set_raw_size(raw.size());
  entry->set_event_count(events);
  index_.set_event_count(index_.event_count() + events);
  offset_ += kChunkHeaderSize + int64_t(stored_.size());
  return absl::OkStatus();
}

absl::Status ChunkWriter::Finish() {
  const int64_t index_offset = offset_;
  // The index lists the chunks before it, not itself.
  proto::ChunkIndex index = index_;
  SYSTOLIC_RETURN_IF_ERROR(WriteChunk(ChunkType::kIndex, index.SerializeAsString(), 0));
  char footer[kFooterSize];
  PutU64(footer, uint64_t(index_offset));
  std::memcpy(footer + 8, kFooterMagic, sizeof(kFooterMagic));
  SYSTOLIC_RETURN_IF_ERROR(sink_->Write(absl::string_view(footer, kFooterSize)));
  offset_ += kFooterSize;
  return absl::OkStatus();
}

}  // namespace systolic::trace
