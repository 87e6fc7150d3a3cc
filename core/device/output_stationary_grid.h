// The cycle-accurate output-stationary array: each PE owns one element of
// C and accumulates it in f32 while rows of A flow right and columns of B
// flow down, one PE per cycle, skewed so that A(i,k) and B(k,j) meet in
// PE(i,j) at cycle i + j + k. When the last PE has fired, the accumulators
// shift down one row per cycle and leave through the bottom edge (R cycles).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/device/grid_fold_result.h"
#include "core/device/pe_register.h"
#include "core/device/systolic_mapping.h"

namespace systolic::device {

class OutputStationaryGrid {
 public:
  explicit OutputStationaryGrid(ArrayShape array);

  // One fold. `a` is rows_used × temporal and `b` temporal × cols_used,
  // row-major; the feeders pad the unused rows and columns with zeros, as the
  // array always moves whole vectors. `out` (rows_used × cols_used) receives
  // the drained results. `callback` may be null.
  GridFoldResult RunFold(int64_t temporal, int64_t rows_used, int64_t cols_used,
                         absl::Span<const bfloat16> a, absl::Span<const bfloat16> b,
                         absl::Span<float> out, const GridCycleCallback* callback);

 private:
  int64_t Index(int64_t i, int64_t j) const { return i * array_.cols + j; }

  ArrayShape array_;
  std::vector<PeRegister> a_;  // operand from A held by each PE, moving right
  std::vector<PeRegister> b_;  // operand from B held by each PE, moving down
  std::vector<float> acc_;
  std::vector<uint8_t> used_;
  std::vector<uint8_t> active_;
};

}  // namespace systolic::device
