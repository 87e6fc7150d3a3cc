// Which buffers hold the values of one computation: every array leaf of a
// value lives in one logical buffer, defined by the instruction that
// computes it. Tuples, get-tuple-element, bitcasts and loops only forward
// buffers (a while runs in the buffers of its initial value). Scheduling and
// buffer assignment both read this.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {

struct LogicalBuffer {
  int64_t id = 0;
  const HloInstruction* instruction = nullptr;  // the definer
  ShapeIndex index;                             // the leaf within its value
  Shape shape;
  int64_t size_bytes = 0;
};

class HloDataflowAnalysis {
 public:
  explicit HloDataflowAnalysis(const HloComputation& computation);

  // True for instructions that define no buffer of their own.
  static bool IsForwarding(const HloInstruction& instr);

  const std::vector<LogicalBuffer>& buffers() const { return buffers_; }
  const LogicalBuffer& buffer(int64_t id) const { return buffers_[id]; }
  // The buffers of the array leaves of `instr`'s value, in leaf order.
  absl::Span<const int64_t> BuffersOf(const HloInstruction* instr) const;
  // The buffers `instr` defines.
  absl::Span<const int64_t> DefinedBy(const HloInstruction* instr) const;
  // Instructions that read the buffer (forwarding instructions are looked
  // through: their readers read it).
  const std::vector<const HloInstruction*>& Readers(int64_t id) const { return readers_[id]; }
  // Part of the computation's result.
  bool IsLiveOut(int64_t id) const { return live_out_[id]; }
  // The position of `index` among the leaves of `shape` (-1 if it is not a leaf).
  static int64_t LeafNumber(const Shape& shape, const ShapeIndex& index);

 private:
  const HloComputation& computation_;
  std::vector<LogicalBuffer> buffers_;
  absl::flat_hash_map<const HloInstruction*, std::vector<int64_t>> points_to_;
  absl::flat_hash_map<const HloInstruction*, std::vector<int64_t>> defined_;
  std::vector<std::vector<const HloInstruction*>> readers_;
  std::vector<bool> live_out_;
};

}  // namespace systolic
