// UTF-8 well-formedness. Protobuf string fields must hold UTF-8: a spec or
// profile string that does not is refused where it is read, with the byte
// offset, rather than written out and refused by the next reader.
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"

namespace systolic {

// The offset of the first byte that does not begin or continue a
// well-formed UTF-8 sequence (overlong forms, surrogates and code points
// past U+10FFFF are ill-formed); -1 when all of `text` is well-formed.
int64_t FirstInvalidUtf8Byte(absl::string_view text);

}  // namespace systolic
