#include "core/stablehlo/quant_type.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace systolic::mlir {
namespace {

absl::Status Bad(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad quantized type !quant.", text, ": ", why));
}

absl::StatusOr<PrimitiveType> StorageType(absl::string_view name) {
  static constexpr std::pair<absl::string_view, PrimitiveType> kTypes[] = {
      {"i2", S2}, {"i4", S4}, {"i8", S8}, {"i16", S16}, {"i32", S32}, {"i64", S64},
      {"u2", U2}, {"u4", U4}, {"u8", U8}, {"u16", U16}, {"u32", U32}, {"u64", U64},
  };
  for (const auto& [n, type] : kTypes) {
    if (n == name) return type;
  }
  return absl::InvalidArgumentError(absl::StrCat("'", name, "' is no integer storage type"));
}

absl::StatusOr<PrimitiveType> ExpressedType(absl::string_view name) {
  if (name == "f32") return F32;
  if (name == "f64") return F64;
  if (name == "bf16") return BF16;
  if (name == "f16") return F16;
  return absl::InvalidArgumentError(absl::StrCat("'", name, "' is no float expressed type"));
}

// The full range of a storage type.
std::pair<int64_t, int64_t> RangeOf(PrimitiveType type) {
  const int bits = primitive_util::BitWidth(type);
  if (primitive_util::IsSignedIntegralType(type)) {
    return {-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1};
  }
  return {0, bits >= 63 ? INT64_MAX : (int64_t{1} << bits) - 1};
}

// "0.1:-30" or "0.1": a scale and its zero point (0 when left out).
absl::Status ParseScale(absl::string_view text, absl::string_view item, QuantType* q) {
  item = absl::StripAsciiWhitespace(item);
  const size_t colon = item.find(':');
  double scale;
  int64_t zero_point = 0;
  if (!absl::SimpleAtod(item.substr(0, colon), &scale) || !std::isfinite(scale) || scale <= 0) {
    return Bad(text, absl::StrCat("scale '", item.substr(0, colon), "' is not a positive number"));
  }
  if (colon != absl::string_view::npos &&
      !absl::SimpleAtoi(absl::StripAsciiWhitespace(item.substr(colon + 1)), &zero_point)) {
    return Bad(text, absl::StrCat("zero point '", item.substr(colon + 1), "' is not an integer"));
  }
  if (zero_point < q->storage_min || zero_point > q->storage_max) {
    return Bad(text, absl::StrCat("zero point ", zero_point, " is outside the storage range [",
                                  q->storage_min, ", ", q->storage_max, "]"));
  }
  q->scales.push_back(scale);
  q->zero_points.push_back(zero_point);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<QuantType> ParseQuantType(absl::string_view text) {
  absl::string_view body = absl::StripAsciiWhitespace(text);
  if (!absl::ConsumePrefix(&body, "uniform<") || !absl::ConsumeSuffix(&body, ">")) {
    return Bad(text, "expected uniform<storage:expressed, scale:zero_point>");
  }
  // The types end at the first top-level comma (a storage range has none).
  const size_t comma = body.find(',');
  if (comma == absl::string_view::npos) return Bad(text, "expected ', scale' after the types");
  absl::string_view types = absl::StripAsciiWhitespace(body.substr(0, comma));
  absl::string_view scales = absl::StripAsciiWhitespace(body.substr(comma + 1));

  QuantType q;
  // Storage: "i8" or "i8<-127:127>".
  absl::string_view storage = types.substr(0, types.find_first_of("<:"));
  absl::StatusOr<PrimitiveType> storage_type = StorageType(storage);
  if (!storage_type.ok()) return Bad(text, storage_type.status().message());
  q.storage = *storage_type;
  std::tie(q.storage_min, q.storage_max) = RangeOf(q.storage);
  types.remove_prefix(storage.size());
  if (absl::ConsumePrefix(&types, "<")) {
    const size_t close = types.find('>');
    const std::vector<absl::string_view> range = absl::StrSplit(types.substr(0, close), ':');
    int64_t lo, hi;
    if (close == absl::string_view::npos || range.size() != 2 || !absl::SimpleAtoi(range[0], &lo) ||
        !absl::SimpleAtoi(range[1], &hi) || lo > hi || lo < q.storage_min || hi > q.storage_max) {
      return Bad(text, "the storage range must be <min:max> within the storage type");
    }
    q.storage_min = lo;
    q.storage_max = hi;
    types.remove_prefix(close + 1);
  }
  if (!absl::ConsumePrefix(&types, ":")) return Bad(text, "expected ':' and the expressed type");
  const std::vector<absl::string_view> rest = absl::StrSplit(types, ':');
  absl::StatusOr<PrimitiveType> expressed = ExpressedType(rest[0]);
  if (!expressed.ok()) return Bad(text, expressed.status().message());
  q.expressed = *expressed;
  if (rest.size() > 2 || (rest.size() == 2 && (!absl::SimpleAtoi(rest[1], &q.axis) || q.axis < 0))) {
    return Bad(text, "the quantized axis must be a dimension number");
  }
  if (q.per_axis()) {
    if (!absl::ConsumePrefix(&scales, "{") || !absl::ConsumeSuffix(&scales, "}")) {
      return Bad(text, "per-axis scales are written {scale:zero_point, ...}");
    }
    for (absl::string_view item : absl::StrSplit(scales, ',')) {
      if (absl::Status s = ParseScale(text, item, &q); !s.ok()) return s;
    }
  } else if (absl::Status s = ParseScale(text, scales, &q); !s.ok()) {
    return s;
  }
  return q;
}

}  // namespace systolic::mlir
