#include "core/device/stationary_operand_grid.h"

#include <algorithm>
#include <cassert>

namespace systolic::device {

StationaryOperandGrid::StationaryOperandGrid(ArrayShape array)
    : array_(array),
      w_(array.pes()),
      x_(array.pes()),
      psum_(array.pes()),
      psum_valid_(array.pes()),
      used_(array.pes()),
      active_(array.pes()) {}

GridFoldResult StationaryOperandGrid::RunFold(int64_t temporal, int64_t rows_used,
                                              int64_t cols_used,
                                              absl::Span<const bfloat16> stationary,
                                              absl::Span<const bfloat16> streaming,
                                              absl::Span<float> out,
                                              const GridCycleCallback* callback) {
  const int64_t R = array_.rows, C = array_.cols;
  std::fill(x_.begin(), x_.end(), PeRegister{});
  std::fill(psum_valid_.begin(), psum_valid_.end(), 0);
  std::fill(used_.begin(), used_.end(), 0);
  GridFoldResult result;

  // Preload: at cycle p the top row takes stationary row R - 1 - p, so after
  // R cycles row i holds stationary row i. Padding rows and columns hold 0.
  for (int64_t p = 0; p < R; ++p) {
    for (int64_t i = R - 1; i > 0; --i) {
      std::copy_n(w_.begin() + Index(i - 1, 0), C, w_.begin() + Index(i, 0));
    }
    const int64_t row = R - 1 - p;
    for (int64_t j = 0; j < C; ++j) {
      w_[Index(0, j)] = row < rows_used && j < cols_used
                            ? PeRegister{stationary[row * cols_used + j], true, true}
                            : PeRegister{bfloat16(0.0f), true, false};
    }
    ++result.cycles;
    if (callback) (*callback)(MxuPhase::kPreload, {});
  }

  // The left feeder of row i sends x(t - i, i) at cycle t.
  auto feed = [&](int64_t i, int64_t t) {
    const int64_t s = t - i;
    if (s < 0 || s >= temporal) return PeRegister{};
    if (i >= rows_used) return PeRegister{bfloat16(0.0f), true, false};
    return PeRegister{streaming[s * rows_used + i], true, true};
  };
  const int64_t last_feed_cycle = R - 1 + temporal - 1;

  for (int64_t t = 0;; ++t) {
    for (int64_t i = 0; i < R; ++i) {
      for (int64_t j = C - 1; j > 0; --j) x_[Index(i, j)] = x_[Index(i, j - 1)];
      x_[Index(i, 0)] = feed(i, t);
    }
    // Bottom row first, so that row i - 1 still holds last cycle's sums.
    bool busy = false;
    for (int64_t i = R - 1; i >= 0; --i) {
      for (int64_t j = 0; j < C; ++j) {
        const int64_t p = Index(i, j);
        const PeRegister& x = x_[p];
        active_[p] = x.valid;
        if (!x.valid) {
          psum_valid_[p] = 0;
          continue;
        }
        busy = true;
        // The sum from above belongs to the same vector t - i - j.
        assert(i == 0 || psum_valid_[Index(i - 1, j)]);
        const float in = i == 0 ? 0.0f : psum_[Index(i - 1, j)];
        const PeRegister& w = w_[p];
        psum_[p] = in + float(x.value) * float(w.value);  // exact product, f32 sum
        psum_valid_[p] = 1;
        if (x.real && w.real) {
          ++result.macs;
          used_[p] = 1;
        }
      }
    }
    // The bottom edge collects y(t - (R - 1) - j, j).
    for (int64_t j = 0; j < cols_used; ++j) {
      const int64_t p = Index(R - 1, j);
      if (psum_valid_[p]) out[(t - (R - 1) - j) * cols_used + j] = psum_[p];
    }
    if (!busy && t > last_feed_cycle) break;
    ++result.cycles;
    if (callback) (*callback)(MxuPhase::kStream, active_);
  }
  result.useful_pes = std::count(used_.begin(), used_.end(), 1);
  return result;
}

}  // namespace systolic::device
