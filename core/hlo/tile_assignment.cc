#include "core/hlo/tile_assignment.h"

#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic {

TileAssignment::TileAssignment(std::vector<int64_t> dimensions, std::vector<int64_t> devices)
    : dimensions_(std::move(dimensions)), devices_(std::move(devices)) {}

absl::StatusOr<TileAssignment> TileAssignment::Iota(std::vector<int64_t> dimensions,
                                                    std::vector<int64_t> reshape_dimensions,
                                                    std::vector<int64_t> transpose_perm) {
  auto product = [](const std::vector<int64_t>& v) {
    int64_t p = 1;
    for (int64_t d : v) {
      if (d < 0 || (d != 0 && p > (int64_t{1} << 40) / d)) return int64_t{-1};
      p *= d;
    }
    return p;
  };
  int64_t n = product(dimensions);
  if (n < 0 || n != product(reshape_dimensions)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "iota tile assignment [", absl::StrJoin(dimensions, ","), "]<=[",
        absl::StrJoin(reshape_dimensions, ","), "] has different element counts"));
  }
  size_t rank = reshape_dimensions.size();
  if (!transpose_perm.empty()) {
    std::vector<bool> seen(rank, false);
    bool valid = transpose_perm.size() == rank;
    for (int64_t p : transpose_perm) {
      if (!valid || p < 0 || p >= int64_t(rank) || seen[p]) {
        valid = false;
        break;
      }
      seen[p] = true;
    }
    if (!valid) {
      return absl::InvalidArgumentError(absl::StrCat("T(", absl::StrJoin(transpose_perm, ","),
                                                     ") is not a permutation of ", rank,
                                                     " dimensions"));
    }
  }
  // An identity transpose says nothing; drop it so equal assignments print alike.
  bool identity = true;
  for (size_t i = 0; i < transpose_perm.size(); ++i) identity &= transpose_perm[i] == int64_t(i);
  if (identity) transpose_perm.clear();
  TileAssignment t;
  t.dimensions_ = std::move(dimensions);
  t.iota_reshape_ = reshape_dimensions;
  t.iota_perm_ = transpose_perm;
  // Device at transposed position q = iota value of the untransposed index.
  std::vector<int64_t> perm = transpose_perm;
  if (perm.empty()) {
    perm.resize(rank);
    std::iota(perm.begin(), perm.end(), 0);
  }
  std::vector<int64_t> transposed_dims(rank);
  for (size_t i = 0; i < rank; ++i) transposed_dims[i] = reshape_dimensions[perm[i]];
  std::vector<int64_t> strides(rank, 1);
  for (int64_t i = int64_t(rank) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * reshape_dimensions[i + 1];
  }
  t.devices_.resize(n);
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t value = 0;
    for (size_t i = 0; i < rank; ++i) value += index[i] * strides[perm[i]];
    t.devices_[linear] = value;
    for (int64_t i = int64_t(rank) - 1; i >= 0; --i) {
      if (++index[i] < transposed_dims[i]) break;
      index[i] = 0;
    }
  }
  return t;
}

int64_t TileAssignment::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dimensions_) n *= d;
  return n;
}

int64_t TileAssignment::operator()(absl::Span<const int64_t> index) const {
  int64_t linear = 0;
  for (size_t i = 0; i < dimensions_.size(); ++i) linear = linear * dimensions_[i] + index[i];
  return devices_[linear];
}

std::string TileAssignment::ToString() const {
  std::string out = absl::StrCat("[", absl::StrJoin(dimensions_, ","), "]");
  if (iota_reshape_) {
    absl::StrAppend(&out, "<=[", absl::StrJoin(*iota_reshape_, ","), "]");
    if (!iota_perm_.empty()) absl::StrAppend(&out, "T(", absl::StrJoin(iota_perm_, ","), ")");
    return out;
  }
  return absl::StrCat(out, absl::StrJoin(devices_, ","));
}

}  // namespace systolic
