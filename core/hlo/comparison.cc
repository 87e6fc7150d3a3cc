#include "core/hlo/comparison.h"

namespace systolic {

absl::string_view ComparisonDirectionToString(ComparisonDirection d) {
  switch (d) {
    case ComparisonDirection::kEq:
      return "EQ";
    case ComparisonDirection::kNe:
      return "NE";
    case ComparisonDirection::kGe:
      return "GE";
    case ComparisonDirection::kGt:
      return "GT";
    case ComparisonDirection::kLe:
      return "LE";
    case ComparisonDirection::kLt:
      return "LT";
  }
  return "EQ";
}

std::optional<ComparisonDirection> StringToComparisonDirection(absl::string_view s) {
  for (auto d : {ComparisonDirection::kEq, ComparisonDirection::kNe, ComparisonDirection::kGe,
                 ComparisonDirection::kGt, ComparisonDirection::kLe, ComparisonDirection::kLt}) {
    if (ComparisonDirectionToString(d) == s) return d;
  }
  return std::nullopt;
}

absl::string_view ComparisonTypeToString(ComparisonType t) {
  switch (t) {
    case ComparisonType::kFloat:
      return "FLOAT";
    case ComparisonType::kFloatTotalOrder:
      return "TOTALORDER";
    case ComparisonType::kSigned:
      return "SIGNED";
    case ComparisonType::kUnsigned:
      return "UNSIGNED";
  }
  return "FLOAT";
}

std::optional<ComparisonType> StringToComparisonType(absl::string_view s) {
  for (auto t : {ComparisonType::kFloat, ComparisonType::kFloatTotalOrder,
                 ComparisonType::kSigned, ComparisonType::kUnsigned}) {
    if (ComparisonTypeToString(t) == s) return t;
  }
  return std::nullopt;
}

ComparisonType DefaultComparisonType(PrimitiveType t) {
  if (primitive_util::IsFloatingPointType(t) || primitive_util::IsComplexType(t)) {
    return ComparisonType::kFloat;
  }
  if (primitive_util::IsSignedIntegralType(t)) return ComparisonType::kSigned;
  return ComparisonType::kUnsigned;  // unsigned integers and pred
}

}  // namespace systolic
