// Checks that a ChipSpec describes a chip: every field present and positive
// (a duration in ns may be zero).
#pragma once

#include "absl/status/status.h"
#include "core/device/chip_spec.pb.h"

namespace systolic::device {

// OK, or InvalidArgument naming every missing, zero, negative or non-finite
// field by its path ("mxu.rows is missing; hbm.bandwidth_gb_per_second must be
// positive, got -1").
absl::Status ValidateChipSpec(const ChipSpec& spec);

}  // namespace systolic::device
