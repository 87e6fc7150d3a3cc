// A file written under a temporary name beside its final one
// ("<path>.partial") and renamed onto it only when complete, so a crash
// never leaves half a file under the real name. What was flushed before a
// crash stays in the partial file.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/atomic_file.h"
#include "core/trace/byte_sink.h"

namespace systolic::trace {

class PartialFile : public ByteSink {
 public:
  // Creates (or truncates) `PartialPath(path)`.
  static absl::StatusOr<std::unique_ptr<PartialFile>> Create(const std::string& path);
  static std::string PartialPath(const std::string& path) { return PartialPathOf(path); }
  ~PartialFile() override;  // closes; the partial file stays

  absl::Status Write(absl::string_view bytes) override;
  absl::Status Flush(bool durable) override;
  // Syncs, closes and renames the partial file onto the final path.
  absl::Status Commit();
  // Closes and removes the partial file.
  void Abandon();

  const std::string& path() const { return path_; }
  const std::string& partial_path() const { return partial_path_; }

 private:
  PartialFile(std::string path, int fd);
  std::string path_;
  std::string partial_path_;
  int fd_;
};

}  // namespace systolic::trace
