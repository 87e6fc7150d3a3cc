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
  // The attributes after the dimension order follow a ':' (dropped again
  // when there are none, the common case).
  const size_t colon = out->size();
  *out += ':';
  if (!dim_level_types_.empty()) {
    absl::StrAppend(out, "D(", absl::StrJoin(dim_level_types_, ","), ")");
  }
  if (!tiles_.empty()) {
    *out += 'T';
    for (const Tile& t : tiles_) *out += t.ToString();
  }
  if (tail_padding_alignment_ != 1) absl::StrAppend(out, "L(", tail_padding_alignment_, ")");
  if (index_type_ != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(out, "#(", primitive_util::LowercasePrimitiveTypeName(index_type_), ")");
  }
  if (pointer_type_ != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(out, "*(", primitive_util::LowercasePrimitiveTypeName(pointer_type_), ")");
  }
  if (element_size_in_bits_ != 0) absl::StrAppend(out, "E(", element_size_in_bits_, ")");
  if (memory_space_ != 0) absl::StrAppend(out, "S(", memory_space_, ")");
  if (dynamic_prefix_bytes_ != 0) absl::StrAppend(out, "M(", dynamic_prefix_bytes_, ")");
  if (out->size() == colon + 1) out->resize(colon);
  *out += '}';
}

}  // namespace systolic
