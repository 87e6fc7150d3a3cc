// Finds the chunks of a profile file and checks their framing (markers,
// sizes, checksums, footer) before anything is decompressed, naming the
// chunk and byte offset of any damage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/trace/chunk_format.h"

namespace systolic::trace {

struct ChunkView {
  int64_t number = 0;    // 0-based, in file order
  int64_t offset = 0;    // byte offset of its header in the file
  uint32_t type = 0;     // a ChunkType, or a newer one
  absl::string_view stored;  // the compressed bytes (inside the scanned buffer)
  int64_t raw_size = 0;
};

struct ChunkScan {
  uint32_t version = 0;
  std::vector<ChunkView> chunks;  // the index chunk last when `finished`
  bool finished = false;          // the writer closed the file (footer present)
  // When recovering: why the scan stopped before the end of the file.
  std::string stopped_because;
  int64_t ignored_bytes = 0;      // bytes after the last good chunk
};

struct ChunkScanOptions {
  bool recover = false;                 // stop at damage instead of failing
  int64_t max_chunk_bytes = kMaxChunkRawBytes;  // uncompressed size limit per chunk
};

absl::StatusOr<ChunkScan> ScanChunks(absl::string_view file, const ChunkScanOptions& options);

}  // namespace systolic::trace
