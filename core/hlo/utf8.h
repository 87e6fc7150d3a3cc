// Text and bytes: UTF-8 well-formedness (protobuf string fields must hold
// UTF-8, so a spec string that does not is refused where it is read), telling
// a text file from a binary one, and showing any bytes as readable text.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic {

// The offset of the first byte that does not begin or continue a
// well-formed UTF-8 sequence (overlong forms, surrogates and code points
// past U+10FFFF are ill-formed); -1 when all of `text` is well-formed.
int64_t FirstInvalidUtf8Byte(absl::string_view text);

// The offset of the first byte no text file holds: a control character other
// than tab, line feed, vertical tab, form feed and carriage return (NUL
// among them); -1 when there is none. Bytes past 0x7F pass: program text may
// quote names in any encoding.
int64_t FirstBinaryByte(absl::string_view text);

// `text` with every byte that would not show as itself escaped as \xNN
// (control characters but tab and line feed, and bytes of ill-formed UTF-8),
// so an error quoting a broken file prints no garbage and keeps its columns.
std::string PrintableText(absl::string_view text);

}  // namespace systolic
