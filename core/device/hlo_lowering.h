// Lowers a compiled HloModule's entry computation to a ChipProgram: each
// instruction (in schedule order when the module is scheduled, else post
// order) becomes DMA loads of its operands in VMEM-sized tiles, MXU passes
// for dots and convolutions (fused or not), vector-unit passes for the rest,
// and DMA of its results back to HBM, double buffered, split over the cores
// when big enough. Only shapes are used, so lowering needs no values.
//
// Every op is named "<instruction>/<what>" and the side table maps it back
// to its HLO instruction. Collectives timed on a slice become one op of that
// length on every core's ICI unit; a synchronous one is a fence: nothing
// after it starts before it ends (async starts are not). Instructions the
// model does not cover become one fixed-length op on the scalar unit named
// "<instruction>/unmodelled <why>".
//
// Control flow (while, conditional, call) whose length the caller has timed
// (see program_timing.h) becomes one op of that length on every core's
// scalar unit that waits for everything before it and that everything after
// waits for: the called computations use the whole chip while they run.
//
// Cores share no dependencies (a ChipProgram has none across cores): each
// runs its share of every instruction in order, which models a chip whose
// cores synchronise only at the end of the program.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/device_program.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

struct LoweredProgram {
  ChipProgram program;
  // The HLO instruction of every op: op_instruction[core][op].
  std::vector<std::vector<std::string>> op_instruction;
  // The instructions that run a kernel, in program order.
  std::vector<std::string> kernels;
  // Custom-call targets with no cost rule (custom_call_costs.h), with how
  // many instructions call each.
  std::map<std::string, int64_t> unknown_custom_calls;
  // Per control-flow instruction timed by the caller, its op on each core.
  absl::flat_hash_map<std::string, std::vector<OpId>> control_flow_ops;

  const std::string& InstructionOf(int core, OpId op) const { return op_instruction[core][op]; }
};

struct LoweringOptions {
  // Check that the module's live buffers fit HBM first (ResourceExhausted
  // listing the largest buffers otherwise).
  bool check_hbm = true;
  // Cycles each collective takes on the slice, by instruction name (see
  // slice_timing.h); collectives not listed stay unmodelled.
  absl::flat_hash_map<std::string, int64_t> collective_cycles;
  // Cycles each while / conditional / call takes with what it calls, and how
  // its op is labelled ("loop ×32"), by instruction name; those not listed
  // stay unmodelled.
  struct ControlFlow {
    int64_t cycles = 0;
    std::string label;
  };
  absl::flat_hash_map<std::string, ControlFlow> control_flow;
  // Iterations assumed for a while whose trip count cannot be found (the
  // user's --trip-count); without it such a loop runs once, with a warning.
  std::optional<int64_t> unknown_trip_count;
};

absl::StatusOr<LoweredProgram> LowerModule(const HloModule& module, const ChipSpec& spec,
                                           const LoweringOptions& options = {});

// The same for one computation of `module` (a loop body, a branch), in its
// schedule's order; never checks HBM (the module's check covers it).
absl::StatusOr<LoweredProgram> LowerComputation(const HloModule& module,
                                                const HloComputation& computation,
                                                const ChipSpec& spec,
                                                const LoweringOptions& options = {});

}  // namespace systolic::device
