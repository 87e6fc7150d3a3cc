// The simulated time of a compiled module on a chip: lower it, simulate the
// chip program, and fold the trace back onto the HLO instructions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/compiler.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/hlo_lowering.h"
#include "core/device/simulation_result.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

// One HLO instruction's share of the run, over all cores.
struct OpTiming {
  std::string instruction;
  // The unit kind it kept busiest: "MXU", "vector", "DMA" or "scalar".
  std::string unit;
  int64_t start_cycle = 0;  // its first event's start
  int64_t end_cycle = 0;    // its last event's end
  // The longest a core spent on it, first start to last end on that core
  // (cores run their shares side by side, not in lockstep).
  double seconds = 0;
  double percent = 0;       // of the simulated time
  double flops = 0;
  int64_t bytes = 0;        // moved between HBM and VMEM
  // Of the chip's peak for `unit` over the time some core was on it: FLOP/s
  // for the MXUs and the vector unit, bytes/s of HBM for DMA.
  double utilization = 0;
  int64_t events = 0;
  // How many times it ran in one run of the program: the product of the trip
  // counts of the loops around it (1 outside control flow).
  int64_t executions = 1;
  // The while / conditional / call it ran inside; empty at the top level.
  // Its figures are its totals over all executions, and are part of the
  // parent's (so only top-level rows add up to the program).
  std::string parent;
};

struct ProgramTiming {
  std::string chip;
  int64_t cycles = 0;
  double seconds = 0;
  double flops = 0;
  double flops_per_second = 0;
  double peak_flops_per_second = 0;
  double sum_of_op_seconds = 0;  // more than `seconds` when ops overlap
  // In program order; a control-flow instruction's row is followed by the
  // rows of what it ran (their `parent` names it).
  std::vector<OpTiming> ops;
  LoweredProgram lowered;
  SimulationResult simulation;
  // What the user should know about the timing: loops whose trip count was
  // assumed, branches chosen without values, custom calls not costed.
  std::vector<std::string> warnings;
  // Custom-call targets without a cost rule, with their calls per run of
  // the program (loops counted).
  std::map<std::string, int64_t> unknown_custom_calls;
};

// Lowers and simulates an already compiled module: its entry computation,
// and every while body, branch and callee it runs (control_flow_timing.h).
absl::StatusOr<ProgramTiming> TimeCompiledModule(const HloModule& module, const ChipSpec& spec,
                                                 const LoweringOptions& options = {});

struct TimedCompilation {
  CompilationResult compilation;
  ProgramTiming timing;
};

// Compiles `module` for `spec`: options.chip and the cost model (the
// device's, so fusion asks the model that times the result) set from it
// unless given; without a collective cost model, collectives are estimated
// from the chip's ICI link (options.interconnect set from it).
absl::StatusOr<CompilationResult> CompileForChip(std::unique_ptr<HloModule> module,
                                                 const ChipSpec& spec, CompileOptions options = {});

// CompileForChip, then TimeCompiledModule.
absl::StatusOr<TimedCompilation> CompileAndTime(std::unique_ptr<HloModule> module,
                                                const ChipSpec& spec, CompileOptions options = {},
                                                const LoweringOptions& lowering = {});

}  // namespace systolic::device
