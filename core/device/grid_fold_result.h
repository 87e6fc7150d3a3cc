// What one fold on a cycle-accurate grid counted.
#pragma once

#include <cstdint>
#include <functional>

#include "absl/types/span.h"
#include "core/device/mxu_cycle_view.h"

namespace systolic::device {

struct GridFoldResult {
  int64_t cycles = 0;
  int64_t useful_pes = 0;  // PEs that multiplied two real operands at least once
  int64_t macs = 0;        // multiply-accumulates on two real operands
};

// Per-cycle callback from a grid to the engine driving it: the phase, and in
// kStream which PEs fired.
using GridCycleCallback = std::function<void(MxuPhase, absl::Span<const uint8_t> mac_active)>;

}  // namespace systolic::device
