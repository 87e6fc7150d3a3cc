// The unit of a systolic-array core an instruction runs on, as the graph view
// colours it and the timeline groups lanes: the MXU (matrix multiplies and
// convolutions), the vector unit (element-wise maths, reductions), data
// movement (copies, layout changes, slicing), collectives (ICI transfers)
// and control flow.
#pragma once

#include "absl/strings/string_view.h"
#include "core/hlo/hlo_opcode.h"

namespace systolic {
class HloInstruction;
class HloComputation;
}  // namespace systolic

namespace systolic::analysis {

enum class ExecutionUnit : uint8_t {
  kMxu,
  kVector,
  kDataMovement,
  kCollective,
  kControlFlow,
  kOther,
};
inline constexpr int kExecutionUnitCount = 6;

absl::string_view ExecutionUnitName(ExecutionUnit unit);  // "MXU", "vector", ...

// The unit of an opcode taken alone (a fusion is kVector here; see below).
ExecutionUnit ExecutionUnitOfOpcode(HloOpcode opcode);

// The unit of an instruction. A fusion runs where its heaviest member runs
// (MXU before collective before vector before data movement); an async
// start/done or a call runs where its wrapped computation does.
ExecutionUnit ExecutionUnitOf(const HloInstruction& instruction);

// The heaviest unit among a computation's instructions (same order).
ExecutionUnit DominantExecutionUnit(const HloComputation& computation);

// Order of weight used to pick a group's unit: lower is heavier.
int ExecutionUnitWeight(ExecutionUnit unit);

}  // namespace systolic::analysis
