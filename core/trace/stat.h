// A stat attached to an event, an event name or a plane: a key (an index
// into the plane's stat names) and a number or a string. Strings are stored
// once per plane and referred to by index, so a stat is 16 bytes.
#pragma once

#include <cstdint>
#include <cstring>

namespace systolic::trace {

enum class StatKind : uint8_t { kInt64, kUint64, kDouble, kString };

struct Stat {
  int32_t name_id = 0;
  StatKind kind = StatKind::kInt64;
  union {
    int64_t int64_value = 0;
    uint64_t uint64_value;
    double double_value;
    uint32_t string_ref;  // index into the plane's strings
  };

  static Stat Int64(int32_t name_id, int64_t v) {
    Stat s;
    s.name_id = name_id;
    s.int64_value = v;
    return s;
  }
  static Stat Uint64(int32_t name_id, uint64_t v) {
    Stat s;
    s.name_id = name_id;
    s.kind = StatKind::kUint64;
    s.uint64_value = v;
    return s;
  }
  static Stat Double(int32_t name_id, double v) {
    Stat s;
    s.name_id = name_id;
    s.kind = StatKind::kDouble;
    s.double_value = v;
    return s;
  }
  static Stat StringRef(int32_t name_id, uint32_t ref) {
    Stat s;
    s.name_id = name_id;
    s.kind = StatKind::kString;
    s.uint64_value = ref;  // clears the upper bytes so equality can compare bits
    return s;
  }

  // A number as a double (0 for a string).
  double AsDouble() const {
    switch (kind) {
      case StatKind::kInt64: return double(int64_value);
      case StatKind::kUint64: return double(uint64_value);
      case StatKind::kDouble: return double_value;
      case StatKind::kString: return 0;
    }
    return 0;
  }

  // Bitwise, so that a NaN read back equals the NaN written.
  friend bool operator==(const Stat& a, const Stat& b) {
    return a.name_id == b.name_id && a.kind == b.kind && a.uint64_value == b.uint64_value;
  }
};

static_assert(sizeof(Stat) == 16, "stats live in dense side tables");

}  // namespace systolic::trace
