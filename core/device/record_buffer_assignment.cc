#include "core/device/record_buffer_assignment.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace systolic::device {

trace::BufferAssignmentRecord RecordBufferAssignment(const BufferAssignment& assignment) {
  trace::BufferAssignmentRecord record;
  auto space_name = [&](int64_t space) {
    for (const MemorySpaceUsage& u : assignment.memory_spaces()) {
      if (u.memory_space == space) return u.name;
    }
    return space == 0 ? std::string("HBM") : absl::StrCat("S(", space, ")");
  };
  for (const AssignedBuffer& b : assignment.buffers()) {
    record.buffers.push_back({b.id, b.instruction_id, b.instruction, b.shape.ToString(true), b.size_bytes,
                              b.offset, b.start, b.end, space_name(b.memory_space)});
  }
  for (const MemorySpaceUsage& u : assignment.memory_spaces()) {
    record.peaks.push_back({u.name, u.peak_live_bytes, u.peak_position});
  }
  return record;
}

}  // namespace systolic::device
