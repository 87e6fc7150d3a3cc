// Where every buffer of a program lives: memory space, offset, size and the
// span of program order it is live in, with the peak per memory space (the
// memory-over-program-order chart).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::trace {

struct BufferRecord {
  int64_t id = 0;
  int64_t instruction_id = -1;  // unique id of the defining instruction
  std::string instruction;
  std::string shape;            // "f32[128,256]{1,0}"
  int64_t size_bytes = 0;
  int64_t offset = 0;
  int64_t live_start = 0;       // program order, inclusive
  int64_t live_end = 0;         // program order, inclusive
  std::string memory_space;     // "HBM", "VMEM"
  friend bool operator==(const BufferRecord&, const BufferRecord&) = default;
};

struct MemorySpacePeak {
  std::string memory_space;
  int64_t peak_bytes = 0;
  int64_t peak_position = 0;    // program order where the peak is reached
  friend bool operator==(const MemorySpacePeak&, const MemorySpacePeak&) = default;
};

struct BufferAssignmentRecord {
  std::vector<BufferRecord> buffers;
  std::vector<MemorySpacePeak> peaks;
  bool empty() const { return buffers.empty() && peaks.empty(); }
  friend bool operator==(const BufferAssignmentRecord&, const BufferAssignmentRecord&) = default;
};

}  // namespace systolic::trace
