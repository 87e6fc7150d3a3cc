#include "core/trace/file_kind.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_proto_sniff.h"
#include "core/hlo/utf8.h"
#include "core/trace/chunk_format.h"

namespace systolic::trace {

FileKind KindOfBytes(absl::string_view head, absl::string_view name) {
  const absl::string_view magic(kProfileMagic, sizeof(kProfileMagic));
  if (absl::StartsWith(head, magic)) return FileKind::kProfile;
  if (absl::StartsWith(head, "\x93NUMPY")) return FileKind::kNpy;
  if (SniffHloProto(head.substr(0, kKindSniffBytes))) return FileKind::kHloProto;
  if (FirstBinaryByte(head.substr(0, kKindSniffBytes)) < 0) return FileKind::kText;
  // Binary without a magic of ours: a profile by name is read as one (so
  // its error says what is wrong with it as a profile), and protobufs have
  // no magic, so an XSpace is known by its name.
  if (absl::EndsWith(name, ".sysprof")) return FileKind::kProfile;
  if (absl::EndsWith(name, ".pb")) return FileKind::kXSpace;
  return FileKind::kOtherBinary;
}

absl::StatusOr<FileKind> KindOfFile(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    const int error = errno;
    const std::string message = absl::StrCat(path, ": cannot open: ", std::strerror(error));
    return error == ENOENT ? absl::NotFoundError(message) : absl::UnavailableError(message);
  }
  std::string head(kKindSniffBytes, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file.get()));
  if (std::ferror(file.get())) {
    return absl::UnavailableError(absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  }
  return KindOfBytes(head, path);
}

}  // namespace systolic::trace
