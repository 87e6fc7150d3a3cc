// Where every buffer of the entry computation lives and when: live ranges
// over the schedule, in-place reuse of an operand's buffer by an
// elementwise result, the input/output aliases the module declares, and
// offsets from a best-fit heap per memory space. Loops, conditionals and
// calls add the peak of their computations as a temporary at their
// position. The result is the allocation timeline a memory chart draws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

struct BufferAssignmentOptions {
  // Let an elementwise result take over an operand buffer that dies there.
  bool reuse_operand_buffers = true;
  // Offsets and sizes are multiples of this.
  int64_t alignment = 64;
};

enum class BufferKind {
  kParameter,
  kConstant,
  kTemporary,
  kOutput,             // part of the entry result
  kCalledComputation,  // the peak of a loop body, branch or callee
};
absl::string_view BufferKindToString(BufferKind kind);

struct AssignedBuffer {
  int64_t id = 0;
  int64_t instruction_id = -1;  // unique id of the defining instruction
  std::string instruction;      // its name
  ShapeIndex index;             // leaf of the instruction's value
  Shape shape;
  int64_t size_bytes = 0;
  int64_t start = 0;            // schedule positions, inclusive
  int64_t end = 0;
  int64_t offset = 0;
  int64_t memory_space = 0;     // the layout's memory space (0 = HBM)
  BufferKind kind = BufferKind::kTemporary;
  // The buffer whose memory this one reuses in place (-1: its own).
  int64_t shares_with = -1;
  // The parameter (number) whose buffer this output reuses, per
  // input_output_alias.
  std::optional<int64_t> aliased_parameter;
};

struct MemorySpaceUsage {
  int64_t memory_space = 0;
  std::string name;              // "HBM", "S(1)"
  int64_t peak_live_bytes = 0;   // the most bytes live at one position
  int64_t peak_position = 0;
  int64_t heap_bytes = 0;        // the heap size offsets need (>= peak: fragmentation)
};

class BufferAssignment {
 public:
  // Follows the module's schedule (post order where it has none).
  static absl::StatusOr<BufferAssignment> Run(const HloModule& module,
                                              const BufferAssignmentOptions& options = {});

  const std::vector<AssignedBuffer>& buffers() const { return buffers_; }
  const std::vector<MemorySpaceUsage>& memory_spaces() const { return usage_; }
  // The entry computation's instructions in schedule order; positions index it.
  const std::vector<std::string>& sequence() const { return sequence_; }
  int64_t program_length() const { return int64_t(sequence_.size()); }
  // Bytes live at each position of the schedule in one memory space.
  std::vector<int64_t> LiveBytes(int64_t memory_space = 0) const;
  // Things the assignment could not do as asked (an alias needing a copy).
  const std::vector<std::string>& notes() const { return notes_; }
  // The peak of the default memory space (HBM).
  int64_t peak_bytes() const;

  std::string ToString() const;

 private:
  // Memory blocks: a buffer and those that took it over, counted once.
  struct Block {
    int64_t start = 0, end = 0, size = 0, memory_space = 0;
  };
  std::vector<AssignedBuffer> buffers_;
  std::vector<Block> blocks_;
  std::vector<MemorySpaceUsage> usage_;
  std::vector<std::string> sequence_;
  std::vector<std::string> notes_;
};

}  // namespace systolic
