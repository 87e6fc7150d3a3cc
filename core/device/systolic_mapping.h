// How a GEMM is laid onto a systolic array under each dataflow (SCALE-Sim's
// mapping). For C[M,N] = A[M,K]·B[K,N]:
//
//   dataflow            array rows (S_R)  array cols (S_C)  streamed (T)
//   output-stationary   M                 N                 K
//   weight-stationary   K                 N                 M
//   input-stationary    K                 M                 N
//
// The operand spread over S_R × S_C is cut into ceil(S_R/R) × ceil(S_C/C)
// folds of at most R × C; a partial fold still occupies the whole array.
// Both MXU engines take their folds from here.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "core/device/chip_spec.pb.h"

namespace systolic::device {

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t macs() const { return m * n * k; }
};

// The processing-element grid of one MXU.
struct ArrayShape {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t pes() const { return rows * cols; }
};

struct SystolicMapping {
  int64_t spatial_rows = 0;  // S_R
  int64_t spatial_cols = 0;  // S_C
  int64_t temporal = 0;      // T
  int64_t row_folds = 0;     // ceil(S_R / R)
  int64_t col_folds = 0;     // ceil(S_C / C)
  int64_t folds() const { return row_folds * col_folds; }
};

// Positive sizes, a known dataflow, and figures that fit in 64 bits.
absl::Status ValidateGemmOnArray(const GemmShape& gemm, const ArrayShape& array,
                                 Dataflow dataflow);

// Requires ValidateGemmOnArray to pass.
SystolicMapping MapGemm(const GemmShape& gemm, const ArrayShape& array, Dataflow dataflow);

// The extent of fold `index` (0-based) along a dimension of `extent` cut into
// pieces of `tile`: `tile`, or less for the last fold.
int64_t FoldExtent(int64_t extent, int64_t tile, int64_t index);

}  // namespace systolic::device
