// The cycle-accurate array for the weight- and input-stationary dataflows:
// one operand is preloaded into the PEs, the other streams through. Both are
// the same machine; only which GEMM operand sits still differs (the engine
// chooses).
//
// Preload: rows of the stationary tile enter at the top and shift down one
// row per cycle (R cycles). Stream: vector t enters row i at cycle t + i and
// moves right one PE per cycle; PE(i,j) adds x(t,i)·w(i,j) to the partial sum
// arriving from PE(i-1,j) and passes it down, so y(t,j) = Σ_i x(t,i)·w(i,j)
// leaves the bottom of column j at cycle t + R - 1 + j.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/device/grid_fold_result.h"
#include "core/device/pe_register.h"
#include "core/device/systolic_mapping.h"

namespace systolic::device {

class StationaryOperandGrid {
 public:
  explicit StationaryOperandGrid(ArrayShape array);

  // One fold. `stationary` is rows_used × cols_used and `streaming` is
  // temporal × rows_used, row-major; the feeders pad to the array with zeros.
  // `out` (temporal × cols_used) receives the fold's partial sums y(t,j).
  // `callback` may be null.
  GridFoldResult RunFold(int64_t temporal, int64_t rows_used, int64_t cols_used,
                         absl::Span<const bfloat16> stationary,
                         absl::Span<const bfloat16> streaming, absl::Span<float> out,
                         const GridCycleCallback* callback);

 private:
  int64_t Index(int64_t i, int64_t j) const { return i * array_.cols + j; }

  ArrayShape array_;
  std::vector<PeRegister> w_;   // stationary operand of each PE
  std::vector<PeRegister> x_;   // streaming operand, moving right
  std::vector<float> psum_;     // partial sum leaving each PE, moving down
  std::vector<uint8_t> psum_valid_;
  std::vector<uint8_t> used_;
  std::vector<uint8_t> active_;
};

}  // namespace systolic::device
