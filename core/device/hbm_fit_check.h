// Whether a compiled module's buffers fit the chip's HBM at their peak.
#pragma once

#include "absl/status/status.h"
#include "core/device/chip_spec.pb.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

// ResourceExhausted when the peak of live HBM buffers (by the compiler's
// buffer assignment) exceeds the chip's HBM, listing the largest buffers
// live at the peak with their instructions, shapes and sizes.
absl::Status CheckFitsHbm(const HloModule& module, const ChipSpec& spec);

}  // namespace systolic::device
