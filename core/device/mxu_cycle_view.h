// What the cycle-accurate MXU engine shows an observer every cycle, for
// watching the array work (the studio's array view, teaching).
#pragma once

#include <cstdint>
#include <functional>

#include "absl/types/span.h"

namespace systolic::device {

enum class MxuPhase {
  kPreload,  // stationary operand shifting into the PEs (weight/input-stationary)
  kStream,   // operands flowing through, PEs multiplying
  kDrain,    // accumulators shifting out (output-stationary)
};

struct MxuCycleView {
  int64_t cycle = 0;  // since the GEMM began
  int64_t fold = 0;   // 0-based, row folds outer
  MxuPhase phase = MxuPhase::kStream;
  int64_t rows = 0;
  int64_t cols = 0;
  // rows × cols, row-major: 1 where the PE did a multiply-accumulate this
  // cycle (on padding too), 0 elsewhere. Empty outside kStream.
  absl::Span<const uint8_t> mac_active;
};

using MxuObserver = std::function<void(const MxuCycleView&)>;

}  // namespace systolic::device
