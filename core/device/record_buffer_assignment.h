// The compiler's buffer assignment as a profile stores it: every buffer with
// its instruction, shape, offset, live range and memory space, and each
// space's peak.
#pragma once

#include "core/compiler/buffer_assignment.h"
#include "core/trace/buffer_assignment_record.h"

namespace systolic::device {

trace::BufferAssignmentRecord RecordBufferAssignment(const BufferAssignment& assignment);

}  // namespace systolic::device
