#include "core/device/systolic_mapping.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/device/ceil_div.h"

namespace systolic::device {

absl::Status ValidateGemmOnArray(const GemmShape& gemm, const ArrayShape& array,
                                 Dataflow dataflow) {
  auto positive = [](const char* what, int64_t v) -> absl::Status {
    if (v > 0) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(what, " must be positive, got ", v));
  };
  for (auto [what, v] : {std::pair{"M", gemm.m}, {"N", gemm.n}, {"K", gemm.k},
                         {"array rows", array.rows}, {"array cols", array.cols}}) {
    if (absl::Status s = positive(what, v); !s.ok()) return s;
  }
  if (dataflow != OUTPUT_STATIONARY && dataflow != WEIGHT_STATIONARY &&
      dataflow != INPUT_STATIONARY) {
    return absl::InvalidArgumentError(absl::StrCat("unknown dataflow ", int(dataflow)));
  }
  // Keeps M·N·K, the operands' element counts and folds × cycles per fold
  // far from overflow.
  constexpr int64_t kMaxDim = int64_t{1} << 20;
  if (gemm.m > kMaxDim || gemm.n > kMaxDim || gemm.k > kMaxDim || array.rows > kMaxDim ||
      array.cols > kMaxDim) {
    return absl::InvalidArgumentError(
        absl::StrCat("sizes above ", kMaxDim, " are not supported (M=", gemm.m, " N=", gemm.n,
                     " K=", gemm.k, " array ", array.rows, "x", array.cols, ")"));
  }
  return absl::OkStatus();
}

SystolicMapping MapGemm(const GemmShape& gemm, const ArrayShape& array, Dataflow dataflow) {
  SystolicMapping mapping;
  switch (dataflow) {
    case OUTPUT_STATIONARY:
      mapping.spatial_rows = gemm.m;
      mapping.spatial_cols = gemm.n;
      mapping.temporal = gemm.k;
      break;
    case WEIGHT_STATIONARY:
      mapping.spatial_rows = gemm.k;
      mapping.spatial_cols = gemm.n;
      mapping.temporal = gemm.m;
      break;
    default:  // INPUT_STATIONARY
      mapping.spatial_rows = gemm.k;
      mapping.spatial_cols = gemm.m;
      mapping.temporal = gemm.n;
      break;
  }
  mapping.row_folds = CeilDiv(mapping.spatial_rows, array.rows);
  mapping.col_folds = CeilDiv(mapping.spatial_cols, array.cols);
  return mapping;
}

int64_t FoldExtent(int64_t extent, int64_t tile, int64_t index) {
  return std::min(tile, extent - index * tile);
}

}  // namespace systolic::device
