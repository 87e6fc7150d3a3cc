#include "core/hlo/precision_config.h"

#include <algorithm>

namespace systolic {

absl::string_view PrecisionToString(Precision p) {
  switch (p) {
    case Precision::kDefault:
      return "default";
    case Precision::kHigh:
      return "high";
    case Precision::kHighest:
      return "highest";
    case Precision::kPackedNibble:
      return "packed_nibble";
  }
  return "default";
}

std::optional<Precision> StringToPrecision(absl::string_view s) {
  for (auto p : {Precision::kDefault, Precision::kHigh, Precision::kHighest,
                 Precision::kPackedNibble}) {
    if (PrecisionToString(p) == s) return p;
  }
  return std::nullopt;
}

Precision PrecisionConfig::MaxPrecision() const {
  Precision best = Precision::kDefault;
  for (Precision p : operand_precision) {
    if (p != Precision::kPackedNibble && int(p) > int(best)) best = p;
  }
  return best;
}

}  // namespace systolic
