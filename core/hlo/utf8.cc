#include "core/hlo/utf8.h"

namespace systolic {

int64_t FirstInvalidUtf8Byte(absl::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const int64_t n = int64_t(text.size());
  int64_t i = 0;
  while (i < n) {
    const unsigned char lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // The length of the sequence and the range its second byte must fall in
    // (the tighter ranges exclude overlong forms, surrogates and > U+10FFFF).
    int length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + length > n) return i;
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (int k = 2; k < length; ++k) {
      if (bytes[i + k] < 0x80 || bytes[i + k] > 0xBF) return i;
    }
    i += length;
  }
  return -1;
}

}  // namespace systolic
