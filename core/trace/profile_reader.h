// Reads profile files. Damage is an error naming what and where (byte
// offset, chunk), never a crash: a wrong magic, a newer format version, a
// file cut short, a flipped byte (every chunk is checksummed), a chunk whose
// content refers to things that do not exist.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/trace/chunk_format.h"
#include "core/trace/profile.h"

namespace systolic::trace {

struct ReadOptions {
  // Read the complete chunks of a file whose writer was killed (or that was
  // cut short), instead of failing; ReadReport says what was left out.
  bool recover_unfinished = false;
  // Refuse chunks larger than this uncompressed.
  int64_t max_chunk_bytes = kMaxChunkRawBytes;
  // Hears the fraction of the file decoded after each chunk; returning
  // false stops the read (Cancelled).
  std::function<bool(double fraction)> progress;
};

struct ReadReport {
  uint32_t format_version = 0;
  bool finished = false;  // the writer closed the file
  int64_t chunk_count = 0;
  int64_t file_bytes = 0;
  int64_t event_count = 0;
  // What recovery left out, and why.
  std::vector<std::string> warnings;
};

absl::StatusOr<Profile> ReadProfileFile(const std::string& path, const ReadOptions& options = {},
                                        ReadReport* report = nullptr);
// The same, from the bytes of a file.
absl::StatusOr<Profile> ParseProfile(absl::string_view bytes, const ReadOptions& options = {},
                                     ReadReport* report = nullptr);

}  // namespace systolic::trace
