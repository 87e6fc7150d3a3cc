#include "core/trace/partial_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/hlo/atomic_file.h"

namespace systolic::trace {
namespace {

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::UnavailableError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<PartialFile>> PartialFile::Create(const std::string& path) {
  const std::string partial = PartialPath(path);
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", partial);
  return std::unique_ptr<PartialFile>(new PartialFile(path, fd));
}

PartialFile::PartialFile(std::string path, int fd)
    : path_(std::move(path)), partial_path_(PartialPath(path_)), fd_(fd) {}

PartialFile::~PartialFile() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status PartialFile::Write(absl::string_view bytes) {
  if (fd_ < 0) return absl::FailedPreconditionError("the file is closed");
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot write", partial_path_);
    }
    bytes.remove_prefix(size_t(n));
  }
  return absl::OkStatus();
}

absl::Status PartialFile::Flush(bool durable) {
  // write() already handed the bytes to the system: a killed process loses
  // nothing; only a crash of the machine needs the sync.
  if (durable && fd_ >= 0 && ::fdatasync(fd_) != 0) return ErrnoError("cannot sync", partial_path_);
  return absl::OkStatus();
}

absl::Status PartialFile::Commit() {
  if (fd_ < 0) return absl::FailedPreconditionError("the file is closed");
  if (::fsync(fd_) != 0) return ErrnoError("cannot sync", partial_path_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return ErrnoError("cannot close", partial_path_);
  return RenameIntoPlace(partial_path_, path_);
}

void PartialFile::Abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::remove(partial_path_.c_str());
}

}  // namespace systolic::trace
