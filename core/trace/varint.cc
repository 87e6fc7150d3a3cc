#include "core/trace/varint.h"

namespace systolic::trace {

int64_t CountVarints(absl::string_view bytes) {
  if (bytes.empty()) return 0;
  if (uint8_t(bytes.back()) >= 0x80) return -1;
  // Every varint ends in exactly one byte below 0x80.
  int64_t count = 0;
  for (char c : bytes) count += uint8_t(c) < 0x80;
  return count;
}

}  // namespace systolic::trace
