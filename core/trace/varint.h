// Varints as protobuf writes them (7 bits a byte, low bits first, the high
// bit set on every byte but the last), for the event columns the timeline
// codec reads and writes itself.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic::trace {

inline constexpr int kMaxVarintBytes = 10;

// Writes `v` at `p` (room for kMaxVarintBytes); returns the end.
inline char* WriteVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = char(v | 0x80);
    v >>= 7;
  }
  *p++ = char(v);
  return p;
}

inline uint64_t ZigZag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t UnZigZag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

// The number of varints in `bytes`, or -1 when the last one is cut off.
int64_t CountVarints(absl::string_view bytes);

// Reads one varint at `p`. The caller knows one ends before the buffer does
// (CountVarints); false when it is longer than 10 bytes.
inline bool ReadVarint(const char*& p, uint64_t* value) {
  uint64_t byte = uint8_t(*p++);
  if (byte < 0x80) {
    *value = byte;
    return true;
  }
  uint64_t result = byte & 0x7f;
  for (int shift = 7; shift < 7 * kMaxVarintBytes; shift += 7) {
    byte = uint8_t(*p++);
    result |= (byte & 0x7f) << (shift & 63);
    if (byte < 0x80) {
      *value = result;
      return shift < 63 || byte <= 1;
    }
  }
  return false;
}

}  // namespace systolic::trace
