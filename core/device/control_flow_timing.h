// Control flow on the simulated chip. A `while` runs its condition and body
// once per iteration, then its condition a last time; a `conditional` runs
// the branch it takes; a `call` its computation. The called computations are
// lowered and simulated on their own (their cost depends only on shapes, so
// one simulated iteration stands for every one), their length becomes the
// control-flow op's in the caller's program, and their events are copied
// onto the caller's timeline at each place they ran.
//
// Trip counts come from ComputeWhileTripCount (known_trip_count, or the
// induction variable), else from the user's --trip-count, else one
// iteration with a warning. A conditional takes the branch its constant
// predicate or index names. One computed from each device's partition-id
// or replica-id is found per device, and the slowest branch a device takes
// is timed (the others wait for it), with a note when they differ.
// Otherwise the costliest branch, with a note.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/hlo_lowering.h"
#include "core/device/simulation_result.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic::device {

struct ProgramTiming;

// What one while / conditional / call ran, timed.
struct ControlFlowRun {
  std::string instruction;
  std::string label;          // "loop ×32", "branch 1 of 2", "call"
  int64_t iterations = 1;     // of the body (1 for a conditional or call)
  int64_t condition_cycles = 0;  // one check of a while's condition
  int64_t body_cycles = 0;       // one iteration, or the branch / callee
  int64_t total_cycles() const {
    return iterations * (condition_cycles + body_cycles) + condition_cycles;
  }
  std::shared_ptr<const ProgramTiming> condition;  // null unless a while
  std::shared_ptr<const ProgramTiming> body;       // the body, branch or callee
  std::string note;  // how the count or branch was decided, when not proven
};

using TimeComputationFn = std::function<absl::StatusOr<ProgramTiming>(const HloComputation&)>;

// Times `instruction` (a while, conditional or call) with `time` for the
// computations it calls. Nothing else is control flow: FailedPrecondition.
absl::StatusOr<ControlFlowRun> TimeControlFlow(const HloInstruction& instruction,
                                               const LoweringOptions& options,
                                               const TimeComputationFn& time);

bool IsControlFlow(const HloInstruction& instruction);

// Copies the events of `run` onto `simulation` where its op `ops[core]`
// ran: every iteration in full while the copies stay within an event budget,
// then one event per lane for the remaining iterations, marked repeated
// (their FLOPs and bytes summed, so totals stay right). Adds the iteration
// spans at `depth` (the run's own span) and depth + 1 (its iterations), and
// extends `lowered`'s op table with the copied ops.
void SpliceControlFlow(const ControlFlowRun& run, const std::vector<OpId>& ops, int depth,
                       LoweredProgram& lowered, SimulationResult& simulation);

}  // namespace systolic::device
