// Writes profiles to files: whole (WriteProfileFile) or while a long run is
// still producing them (ProfileWriter::Flush after each step, Close at the
// end). Files are written under "<path>.partial" and renamed when closed;
// what was flushed before a crash can be read back from the partial file
// (ReadOptions::recover_unfinished).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/trace/byte_sink.h"
#include "core/trace/profile.h"

namespace systolic::trace {

struct WriteOptions {
  int zstd_level = 3;
  // Events per chunk: bounds the memory a reader or writer needs at once.
  int64_t max_events_per_chunk = int64_t(1) << 16;
  // Sync to disk on every Flush (not just on Close), so a machine crash
  // keeps the flushed chunks too.
  bool durable_flush = false;
};

class ProfileWriter {
 public:
  // A writer to "<path>.partial", renamed to `path` by Close().
  static absl::StatusOr<std::unique_ptr<ProfileWriter>> Create(const std::string& path,
                                                               const WriteOptions& options = {});
  // A writer into a string (tests, in-memory round trips).
  static std::unique_ptr<ProfileWriter> ToString(std::string* out,
                                                 const WriteOptions& options = {});
  ~ProfileWriter();  // without Close(), a file stays "<path>.partial"

  // Appends what `profile` gained since the previous Flush (or since
  // Create) as chunks. Records and events already written must not change;
  // runs, metrics, chip, topology and info may (they are written whole).
  absl::Status Flush(const Profile& profile);
  // The last Flush, the index and footer; then the rename.
  absl::Status Close(const Profile& profile);
  // Stops and removes the partial file.
  void Abandon();

  int64_t bytes_written() const;
  int64_t chunks_written() const;
  int64_t events_written() const { return events_written_; }

 private:
  struct State;
  explicit ProfileWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  int64_t events_written_ = 0;
};

// The whole profile to `path`, atomically.
absl::Status WriteProfileFile(const Profile& profile, const std::string& path,
                              const WriteOptions& options = {});
// The bytes of a profile file.
absl::StatusOr<std::string> SerializeProfile(const Profile& profile,
                                             const WriteOptions& options = {});

}  // namespace systolic::trace
