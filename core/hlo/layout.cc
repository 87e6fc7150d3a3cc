#include "core/hlo/layout.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic {

std::string Tile::ToString() const {
  std::string out = "(";
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (i) out += ",";
    if (dimensions[i] == kCombineDimension) {
      out += "*";
    } else {
      absl::StrAppend(&out, dimensions[i]);
    }
  }
  return out + ")";
}

Layout Layout::Descending(int64_t rank) {
  std::vector<int64_t> m2m(rank);
  for (int64_t i = 0; i < rank; ++i) m2m[i] = rank - 1 - i;
  return Layout(std::move(m2m));
}

bool Layout::IsDescending() const {
  for (size_t i = 0; i < minor_to_major_.size(); ++i) {
    if (minor_to_major_[i] != int64_t(minor_to_major_.size() - 1 - i)) return false;
  }
  return true;
}

std::string Layout::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void Layout::AppendTo(std::string* out) const {
  *out += '{';
  for (size_t i = 0; i < minor_to_major_.size(); ++i) {
    if (i) *out += ',';
    absl::StrAppend(out, minor_to_major_[i]);
  }
  if (dim_level_types_.empty() && tiles_.empty() && tail_padding_alignment_ == 1 &&
      index_type_ == PRIMITIVE_TYPE_INVALID && pointer_type_ == PRIMITIVE_TYPE_INVALID &&
      element_size_in_bits_ == 0 && memory_space_ == 0 && dynamic_prefix_bytes_ == 0) {
    *out += '}';  // the common case: only the dimension order
    return;
  }
  std::string extra;
  if (!dim_level_types_.empty()) {
    absl::StrAppend(&extra, "D(", absl::StrJoin(dim_level_types_, ","), ")");
  }
  if (!tiles_.empty()) {
    extra += "T";
    for (const Tile& t : tiles_) extra += t.ToString();
  }
  if (tail_padding_alignment_ != 1) absl::StrAppend(&extra, "L(", tail_padding_alignment_, ")");
  if (index_type_ != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(&extra, "#(", primitive_util::LowercasePrimitiveTypeName(index_type_), ")");
  }
  if (pointer_type_ != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(&extra, "*(", primitive_util::LowercasePrimitiveTypeName(pointer_type_), ")");
  }
  if (element_size_in_bits_ != 0) absl::StrAppend(&extra, "E(", element_size_in_bits_, ")");
  if (memory_space_ != 0) absl::StrAppend(&extra, "S(", memory_space_, ")");
  if (dynamic_prefix_bytes_ != 0) absl::StrAppend(&extra, "M(", dynamic_prefix_bytes_, ")");
  if (!extra.empty()) absl::StrAppend(out, ":", extra);
  *out += '}';
}

}  // namespace systolic
