// Memory over program order for one memory space of a program's buffer
// assignment: bytes allocated at each position, the peak, and the buffers
// live at the peak by size (XProf's memory viewer). Buffers that reuse
// another's memory in place share its addresses, so a position counts the
// union of the live buffers' address ranges, not the sum of their sizes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/trace/buffer_assignment_record.h"

namespace systolic::analysis {

struct MemoryTimeline {
  std::string memory_space;
  std::vector<int64_t> allocated_bytes;  // one per program position
  int64_t peak_bytes = 0;
  int64_t peak_position = 0;             // the first position reaching the peak
  std::vector<trace::BufferRecord> live_at_peak;  // largest first
  // The instruction whose result is allocated at the peak ("" if none is).
  std::string peak_instruction;
};

// The memory spaces the assignment uses, HBM first.
std::vector<std::string> MemorySpacesOf(const trace::BufferAssignmentRecord& assignment);

MemoryTimeline MemoryOverProgramOrder(const trace::BufferAssignmentRecord& assignment,
                                      absl::string_view memory_space = "HBM");

}  // namespace systolic::analysis
