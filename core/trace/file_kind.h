// What a file holds, told by its first bytes rather than its name: a
// profile (its magic), a NumPy array, one of XLA's HLO protos (by the shape
// of its first fields, binary or text format), text (a program), or other
// binary, which by its name may be an XSpace (a protobuf has no magic of
// its own).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace systolic::trace {

enum class FileKind { kProfile, kNpy, kHloProto, kText, kXSpace, kOtherBinary };

// `head` is the file's first bytes (a few KiB tell text from binary).
FileKind KindOfBytes(absl::string_view head, absl::string_view name);
// Reads the first bytes of `path`; errors: the file cannot be read.
absl::StatusOr<FileKind> KindOfFile(const std::string& path);

// How many leading bytes KindOfBytes looks at.
inline constexpr size_t kKindSniffBytes = 4096;

}  // namespace systolic::trace
