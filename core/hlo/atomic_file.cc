#include "core/hlo/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace systolic {
namespace {

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::UnavailableError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

}  // namespace

std::string PartialPathOf(const std::string& path) { return absl::StrCat(path, ".partial"); }

absl::Status RenameIntoPlace(const std::string& partial, const std::string& path) {
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    return ErrnoError(absl::StrCat("cannot rename ", partial, " to"), path);
  }
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes) {
  const std::string partial = PartialPathOf(path);
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", partial);
  absl::Status status;
  while (!bytes.empty() && status.ok()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno != EINTR) status = ErrnoError("cannot write", partial);
    if (n > 0) bytes.remove_prefix(size_t(n));
  }
  if (status.ok() && ::fsync(fd) != 0) status = ErrnoError("cannot sync", partial);
  if (::close(fd) != 0 && status.ok()) status = ErrnoError("cannot close", partial);
  if (!status.ok()) {
    std::remove(partial.c_str());
    return status;
  }
  return RenameIntoPlace(partial, path);
}

}  // namespace systolic
