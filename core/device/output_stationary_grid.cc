#include "core/device/output_stationary_grid.h"

#include <algorithm>

namespace systolic::device {

OutputStationaryGrid::OutputStationaryGrid(ArrayShape array)
    : array_(array),
      a_(array.pes()),
      b_(array.pes()),
      acc_(array.pes()),
      used_(array.pes()),
      active_(array.pes()) {}

GridFoldResult OutputStationaryGrid::RunFold(int64_t temporal, int64_t rows_used,
                                             int64_t cols_used, absl::Span<const bfloat16> a,
                                             absl::Span<const bfloat16> b, absl::Span<float> out,
                                             const GridCycleCallback* callback) {
  const int64_t R = array_.rows, C = array_.cols;
  std::fill(a_.begin(), a_.end(), PeRegister{});
  std::fill(b_.begin(), b_.end(), PeRegister{});
  std::fill(acc_.begin(), acc_.end(), 0.0f);
  std::fill(used_.begin(), used_.end(), 0);
  GridFoldResult result;

  // The left feeder of row i sends A(i, t - i) at cycle t; the top feeder of
  // column j sends B(t - j, j). Rows and columns past the used ones carry
  // zeros.
  auto feed_a = [&](int64_t i, int64_t t) {
    const int64_t k = t - i;
    if (k < 0 || k >= temporal) return PeRegister{};
    if (i >= rows_used) return PeRegister{bfloat16(0.0f), true, false};
    return PeRegister{a[i * temporal + k], true, true};
  };
  auto feed_b = [&](int64_t j, int64_t t) {
    const int64_t k = t - j;
    if (k < 0 || k >= temporal) return PeRegister{};
    if (j >= cols_used) return PeRegister{bfloat16(0.0f), true, false};
    return PeRegister{b[k * cols_used + j], true, true};
  };
  const int64_t last_feed_cycle = std::max(R, C) - 1 + temporal - 1;

  for (int64_t t = 0;; ++t) {
    // Every register takes its neighbour's value of the previous cycle:
    // walk against the flow so each is read before it is overwritten.
    for (int64_t i = 0; i < R; ++i) {
      for (int64_t j = C - 1; j > 0; --j) a_[Index(i, j)] = a_[Index(i, j - 1)];
      a_[Index(i, 0)] = feed_a(i, t);
    }
    for (int64_t j = 0; j < C; ++j) {
      for (int64_t i = R - 1; i > 0; --i) b_[Index(i, j)] = b_[Index(i - 1, j)];
      b_[Index(0, j)] = feed_b(j, t);
    }
    bool busy = false;
    for (int64_t p = 0; p < R * C; ++p) {
      const PeRegister& x = a_[p];
      const PeRegister& y = b_[p];
      const bool fire = x.valid && y.valid;
      active_[p] = fire;
      busy |= x.valid || y.valid;
      if (!fire) continue;
      // bf16 × bf16 is exact in f32; the sum rounds to f32.
      acc_[p] += float(x.value) * float(y.value);
      if (x.real && y.real) {
        ++result.macs;
        used_[p] = 1;
      }
    }
    if (!busy && t > last_feed_cycle) break;
    ++result.cycles;
    if (callback) (*callback)(MxuPhase::kStream, active_);
  }

  // Drain: each cycle the bottom row leaves the array and every row moves
  // down one PE; after d cycles the row leaving is row R - 1 - d. The
  // accumulators shift out on a path of their own while the next fold's
  // operands stream in, so the drain adds no cycles to the fold.
  for (int64_t d = 0; d < R; ++d) {
    const int64_t row = R - 1 - d;
    if (row < rows_used) {
      for (int64_t j = 0; j < cols_used; ++j) out[row * cols_used + j] = acc_[Index(R - 1, j)];
    }
    for (int64_t i = R - 1; i > 0; --i) {
      std::copy_n(acc_.begin() + Index(i - 1, 0), C, acc_.begin() + Index(i, 0));
    }
    std::fill_n(acc_.begin(), C, 0.0f);
  }
  result.useful_pes = std::count(used_.begin(), used_.end(), 1);
  return result;
}

}  // namespace systolic::device
