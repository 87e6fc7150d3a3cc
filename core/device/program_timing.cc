#include "core/device/program_timing.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/control_flow_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/device/device_simulator.h"
#include "core/device/device_cost_model.h"
#include "core/device/ici_collective_cost_model.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

const char* UnitKindName(UnitKind kind) {
  switch (kind) {
    case UnitKind::kMxu: return "MXU";
    case UnitKind::kVector: return "vector";
    case UnitKind::kDma: return "DMA";
    case UnitKind::kScalar: return "scalar";
    case UnitKind::kIci: return "ICI";
  }
  return "scalar";
}

struct Accumulator {
  int64_t start = INT64_MAX;
  int64_t end = 0;
  double flops = 0;
  int64_t bytes = 0;
  int64_t events = 0;
  // MACs per MXU step of its matrix work: its MXU peak is this × bf16's.
  int64_t macs_per_step = 1;
  std::map<UnitKind, int64_t> busy;
  // Per core, its first start and last end: the cores run their shares side
  // by side but drift apart, so the op's time is its longest core's.
  std::map<int, std::pair<int64_t, int64_t>> core_span;
  int64_t LongestCoreSpan() const {
    int64_t longest = 0;
    for (const auto& [core, span] : core_span) longest = std::max(longest, span.second - span.first);
    return longest;
  }
  // Cycles some core was on it: the chip's units it could use were free to
  // it that long (one core alone gets all of HBM).
  int64_t CoveredCycles() const {
    std::vector<std::pair<int64_t, int64_t>> spans;
    for (const auto& [core, span] : core_span) spans.push_back(span);
    std::sort(spans.begin(), spans.end());
    int64_t covered = 0, reached = INT64_MIN;
    for (const auto& [from, to] : spans) {
      covered += std::max<int64_t>(0, to - std::max(from, reached));
      reached = std::max(reached, to);
    }
    return covered;
  }
};

}  // namespace

namespace {

// Deeper than this is a program built to hang the simulator, not a model.
constexpr int kMaxControlFlowDepth = 64;

UnitKind BusiestUnitOf(const SimulationResult& simulation) {
  std::map<UnitKind, int64_t> busy;
  for (const UnitLane& lane : simulation.lanes) busy[lane.unit.kind] += lane.busy_cycles;
  UnitKind busiest = UnitKind::kScalar;
  int64_t most = -1;
  for (const auto& [kind, cycles] : busy) {
    if (cycles > most) {
      most = cycles;
      busiest = kind;
    }
  }
  return busiest;
}

double Utilization(UnitKind unit, double flops, int64_t bytes, double seconds,
                   int64_t macs_per_step, const ChipSpec& spec) {
  if (seconds <= 0) return 0;
  const double clock = ClockHz(spec);
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  switch (unit) {
    case UnitKind::kMxu: return flops / (seconds * PeakFlopsPerSecond(spec) * double(macs_per_step));
    case UnitKind::kVector:
      return flops / (seconds * double(cores) * double(VregElements(spec)) *
                      spec.vector_unit().ops_per_cycle() * clock);
    case UnitKind::kDma: return double(bytes) / (seconds * HbmBytesPerSecond(spec));
    case UnitKind::kScalar:
    case UnitKind::kIci: return 1;
  }
  return 0;
}

// The rows of what `run` ran, scaled to all its executions, placed at its
// first execution (which starts at `start_cycle`).
void AppendNestedRows(const ControlFlowRun& run, int64_t start_cycle, double program_seconds,
                      std::vector<OpTiming>& rows) {
  auto append = [&](const ProgramTiming& timing, int64_t executions, int64_t offset) {
    for (OpTiming op : timing.ops) {
      op.flops *= double(executions);
      op.bytes *= executions;
      op.seconds *= double(executions);
      op.events *= executions;
      op.executions *= executions;
      op.start_cycle += start_cycle + offset;
      op.end_cycle += start_cycle + offset;
      op.percent = program_seconds > 0 ? 100.0 * op.seconds / program_seconds : 0;
      if (op.parent.empty()) op.parent = run.instruction;
      rows.push_back(std::move(op));
    }
  };
  if (run.condition) append(*run.condition, run.iterations + 1, 0);
  if (run.body) append(*run.body, run.iterations, run.condition_cycles);
}

absl::StatusOr<ProgramTiming> TimeComputation(const HloModule& module,
                                              const HloComputation& computation,
                                              const ChipSpec& spec,
                                              const LoweringOptions& options, int depth) {
  if (depth > kMaxControlFlowDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        computation.name(), ": control flow nested more than ", kMaxControlFlowDepth, " deep"));
  }
  ProgramTiming timing;
  timing.chip = spec.name();
  // Time what the control flow calls first: its length is its op's length.
  LoweringOptions lowering = options;
  std::vector<ControlFlowRun> runs;
  const TimeComputationFn time_callee = [&](const HloComputation& callee) {
    return TimeComputation(module, callee, spec, options, depth + 1);
  };
  for (const HloInstruction* instr : computation.MakeInstructionPostOrder()) {
    if (!IsControlFlow(*instr)) continue;
    SYSTOLIC_ASSIGN_OR_RETURN(ControlFlowRun run, TimeControlFlow(*instr, options, time_callee));
    lowering.control_flow[run.instruction] = {run.total_cycles(), run.label};
    if (!run.note.empty()) timing.warnings.push_back(run.note);
    for (const auto* callee : {run.condition.get(), run.body.get()}) {
      if (callee == nullptr) continue;
      timing.warnings.insert(timing.warnings.end(), callee->warnings.begin(),
                             callee->warnings.end());
      const int64_t runs = callee == run.condition.get() ? run.iterations + 1 : run.iterations;
      for (const auto& [target, calls] : callee->unknown_custom_calls) {
        timing.unknown_custom_calls[target] += calls * runs;
      }
    }
    runs.push_back(std::move(run));
  }
  if (depth == 0) {
    SYSTOLIC_ASSIGN_OR_RETURN(timing.lowered, LowerModule(module, spec, lowering));
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(timing.lowered,
                              LowerComputation(module, computation, spec, lowering));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(timing.simulation, DeviceSimulator(spec).Run(timing.lowered.program));
  for (const auto& [target, calls] : timing.lowered.unknown_custom_calls) {
    timing.unknown_custom_calls[target] += calls;
  }
  const SimulationResult& sim = timing.simulation;
  timing.cycles = sim.cycles;
  timing.seconds = sim.seconds();
  timing.peak_flops_per_second = PeakFlopsPerSecond(spec);

  absl::flat_hash_map<std::string, Accumulator> by_instruction;
  for (const UnitLane& lane : sim.lanes) {
    for (const TraceEvent& event : lane.events) {
      Accumulator& a = by_instruction[timing.lowered.InstructionOf(lane.core, event.op)];
      a.macs_per_step = std::max(a.macs_per_step, event.macs_per_step);
      a.flops += event.flops;
      a.bytes += event.bytes;
      if (event.duration_cycles == 0) continue;  // bookkeeping ("done")
      a.start = std::min(a.start, event.start_cycle);
      a.end = std::max(a.end, event.end_cycle());
      auto [span, inserted] =
          a.core_span.try_emplace(lane.core, event.start_cycle, event.end_cycle());
      if (!inserted) {
        span->second.first = std::min(span->second.first, event.start_cycle);
        span->second.second = std::max(span->second.second, event.end_cycle());
      }
      a.busy[lane.unit.kind] += event.duration_cycles;
      ++a.events;
    }
  }
  const double clock = ClockHz(spec);
  absl::flat_hash_map<std::string, const ControlFlowRun*> run_of;
  for (const ControlFlowRun& run : runs) run_of[run.instruction] = &run;
  for (const std::string& name : timing.lowered.kernels) {
    auto it = by_instruction.find(name);
    if (it == by_instruction.end()) continue;
    const Accumulator& a = it->second;
    OpTiming op;
    op.instruction = name;
    op.flops = a.flops;
    op.bytes = a.bytes;
    op.events = a.events;
    if (a.events > 0) {
      op.start_cycle = a.start;
      op.end_cycle = a.end;
    }
    op.seconds = double(a.LongestCoreSpan()) / clock;
    op.percent = timing.seconds > 0 ? 100.0 * op.seconds / timing.seconds : 0;
    UnitKind busiest = UnitKind::kScalar;
    int64_t most = -1;
    for (const auto& [kind, cycles] : a.busy) {
      if (cycles > most) {
        most = cycles;
        busiest = kind;
      }
    }
    const auto run = run_of.find(name);
    std::vector<OpTiming> nested;
    if (run != run_of.end()) {
      // A loop, branch or call: its figures are those of what it ran.
      const ControlFlowRun& r = *run->second;
      AppendNestedRows(r, op.start_cycle, timing.seconds, nested);
      op.flops = 0;
      op.bytes = 0;
      for (const OpTiming& row : nested) {
        if (row.parent != name) continue;
        op.flops += row.flops;
        op.bytes += row.bytes;
      }
      if (r.body) busiest = BusiestUnitOf(r.body->simulation);
      op.executions = 1;
    }
    op.unit = UnitKindName(busiest);
    const double covered =
        run != run_of.end() ? op.seconds : double(a.CoveredCycles()) / clock;
    if (op.seconds > 0 && covered > 0) {
      op.utilization = Utilization(busiest, op.flops, op.bytes, covered, a.macs_per_step, spec);
    }
    timing.flops += op.flops;
    timing.sum_of_op_seconds += op.seconds;
    timing.ops.push_back(std::move(op));
    for (OpTiming& row : nested) timing.ops.push_back(std::move(row));
  }
  timing.flops_per_second = timing.seconds > 0 ? timing.flops / timing.seconds : 0;
  // Last: the copies of the callees' events would count twice above.
  for (const ControlFlowRun& run : runs) {
    SpliceControlFlow(run, timing.lowered.control_flow_ops[run.instruction], 0, timing.lowered,
                      timing.simulation);
  }
  if (depth == 0) {
    for (const auto& [target, calls] : timing.unknown_custom_calls) {
      timing.warnings.push_back(absl::StrCat(
          "custom call ", target, " (", calls, calls == 1 ? " call" : " calls",
          " per run) has no cost rule: charged only for moving its operands and results "
          "through HBM"));
    }
  }
  // One warning per cause, however often its loop ran.
  std::vector<std::string> unique;
  for (std::string& w : timing.warnings) {
    if (std::find(unique.begin(), unique.end(), w) == unique.end()) unique.push_back(std::move(w));
  }
  timing.warnings = std::move(unique);
  return timing;
}

}  // namespace

absl::StatusOr<ProgramTiming> TimeCompiledModule(const HloModule& module, const ChipSpec& spec,
                                                 const LoweringOptions& options) {
  if (module.entry_computation() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(module.name(), ": the module has no entry computation"));
  }
  return TimeComputation(module, *module.entry_computation(), spec, options, 0);
}

absl::StatusOr<CompilationResult> CompileForChip(std::unique_ptr<HloModule> module,
                                                 const ChipSpec& spec, CompileOptions options) {
  if (options.chip.empty()) options.chip = spec.name();
  DeviceCostModel cost_model(spec);
  if (options.cost_model == nullptr) options.cost_model = &cost_model;
  // Without a slice, collectives are estimated from the chip's link figures.
  if (options.collective_cost_model == nullptr) options.interconnect = InterconnectOf(spec);
  return Compiler(options).Compile(std::move(module));
}

absl::StatusOr<TimedCompilation> CompileAndTime(std::unique_ptr<HloModule> module,
                                                const ChipSpec& spec, CompileOptions options,
                                                const LoweringOptions& lowering) {
  TimedCompilation result;
  SYSTOLIC_ASSIGN_OR_RETURN(result.compilation,
                            CompileForChip(std::move(module), spec, std::move(options)));
  SYSTOLIC_ASSIGN_OR_RETURN(result.timing, TimeCompiledModule(*result.compilation.module, spec, lowering));
  return result;
}

}  // namespace systolic::device
