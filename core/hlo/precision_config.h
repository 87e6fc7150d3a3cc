// Precision of dot / convolution operands (`operand_precision={high,default}`)
// and the dot algorithm (`algorithm=dot_bf16_bf16_f32_x3`).
#pragma once

#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace systolic {

enum class Precision { kDefault, kHigh, kHighest, kPackedNibble };

absl::string_view PrecisionToString(Precision p);
std::optional<Precision> StringToPrecision(absl::string_view s);

struct PrecisionConfig {
  std::vector<Precision> operand_precision;  // empty: all default
  std::string algorithm;                      // empty: unset
  // The highest precision asked of any operand.
  Precision MaxPrecision() const;
  friend bool operator==(const PrecisionConfig&, const PrecisionConfig&) = default;
};

}  // namespace systolic
