#include "core/hlo/utf8.h"

#include "absl/strings/str_format.h"

namespace systolic {
namespace {

// The length of the well-formed UTF-8 sequence at `i`, 0 when there is none.
int Utf8SequenceLength(const unsigned char* bytes, int64_t n, int64_t i) {
  const unsigned char lead = bytes[i];
  if (lead < 0x80) return 1;
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
    return 0;
  }
  if (i + length > n) return 0;
  if (bytes[i + 1] < low || bytes[i + 1] > high) return 0;
  for (int k = 2; k < length; ++k) {
    if (bytes[i + k] < 0x80 || bytes[i + k] > 0xBF) return 0;
  }
  return length;
}

bool IsBinaryByte(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') ||
         c == 0x7F;
}

}  // namespace

int64_t FirstInvalidUtf8Byte(absl::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const int64_t n = int64_t(text.size());
  for (int64_t i = 0; i < n;) {
    const int length = Utf8SequenceLength(bytes, n, i);
    if (length == 0) return i;
    i += length;
  }
  return -1;
}

int64_t FirstBinaryByte(absl::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsBinaryByte(static_cast<unsigned char>(text[i]))) return int64_t(i);
  }
  return -1;
}

std::string PrintableText(absl::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const int64_t n = int64_t(text.size());
  std::string out;
  out.reserve(text.size());
  for (int64_t i = 0; i < n;) {
    const unsigned char c = bytes[i];
    const int length = Utf8SequenceLength(bytes, n, i);
    if (length == 0 || (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      absl::StrAppendFormat(&out, "\\x%02X", c);
      ++i;
      continue;
    }
    out.append(text.data() + i, size_t(length));
    i += length;
  }
  return out;
}

}  // namespace systolic
