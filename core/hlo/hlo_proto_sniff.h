// Whether bytes are one of XLA's HLO protos, told by their content: a
// protobuf has no magic, so the binary form is recognised by the shape of
// its first fields (a module begins with its name and its entry's name,
// both strings; an HloProto and an HloSnapshot wrap one in field 1), and
// the text form by its first field name. Needs no protobuf library, so the
// file-kind check of any layer can use it.
#pragma once

#include <optional>

#include "absl/strings/string_view.h"

namespace systolic {

// The message a file holds, outermost first.
enum class HloProtoMessage { kHloModuleProto, kHloProto, kHloSnapshot };

struct HloProtoSniff {
  HloProtoMessage message = HloProtoMessage::kHloModuleProto;
  bool text_format = false;
};

// Whether `name` can name a module in a binary proto this product reads
// (how a binary module is recognised, so the reader refuses the others):
// not empty, at most 4096 bytes, UTF-8 text without control characters.
bool IsReadableModuleName(absl::string_view name);

// `head` is the file's first bytes (a few KiB suffice; the file may be
// longer). nullopt when they do not look like an HLO proto.
std::optional<HloProtoSniff> SniffHloProto(absl::string_view head);

}  // namespace systolic
