// Checks a chip program against the chip before it runs, so that the
// simulator only meets well-formed programs.
#pragma once

#include "absl/status/status.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/device_program.h"

namespace systolic::device {

// No more cores than the chip has; every op on a unit the core has, its
// dependencies on earlier ops of its core (so the graph is acyclic), its
// buffers declared, no larger than VMEM, allocated by at most one op and
// freed by at most one. Errors name the core and the op.
absl::Status ValidateChipProgram(const ChipSpec& spec, const ChipProgram& program);

}  // namespace systolic::device
