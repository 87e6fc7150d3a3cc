// Direction and type of a compare instruction (`direction=LT, type=TOTALORDER`).
#pragma once

#include <optional>
#include "absl/strings/string_view.h"

#include "core/hlo/primitive_type.h"

namespace systolic {

enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };
// kFloatTotalOrder orders -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
enum class ComparisonType { kFloat, kFloatTotalOrder, kSigned, kUnsigned };

absl::string_view ComparisonDirectionToString(ComparisonDirection d);
std::optional<ComparisonDirection> StringToComparisonDirection(absl::string_view s);
absl::string_view ComparisonTypeToString(ComparisonType t);
std::optional<ComparisonType> StringToComparisonType(absl::string_view s);
// The type XLA infers when none is given.
ComparisonType DefaultComparisonType(PrimitiveType element_type);

}  // namespace systolic
