#include "core/device/control_flow_timing.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "core/compiler/scalar_value.h"
#include "core/compiler/while_loop_analysis.h"
#include "core/hlo/hlo_module.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

// Events copied per control-flow run before later iterations are folded
// into one repeated event per lane: enough for every layer of a scanned
// model, few enough that a 10,000-iteration loop stays small.
constexpr int64_t kSplicedEventBudget = 100'000;
// Iteration spans drawn one by one before the rest are one span.
constexpr int64_t kIterationSpanBudget = 1'000;

int64_t EventCount(const ProgramTiming& timing) {
  int64_t n = 0;
  for (const UnitLane& lane : timing.simulation.lanes) n += int64_t(lane.events.size());
  return n;
}

// The branch a conditional's operand value selects.
int64_t BranchFor(const HloInstruction& conditional, int64_t value) {
  const int64_t branches = conditional.branch_count();
  if (conditional.operand(0)->shape().element_type() == PrimitiveType::PRED) {
    return value != 0 ? 0 : 1;  // true_computation first
  }
  // An index out of range runs the last branch (XLA's rule).
  return (value < 0 || value >= branches) ? branches - 1 : value;
}

// How many devices take each branch, when every device's predicate or
// index follows from constants and its own ids; nullopt when it depends on
// values.
std::optional<std::vector<int64_t>> DevicesPerBranch(const HloInstruction& conditional) {
  std::vector<int64_t> devices(conditional.branch_count(), 0);
  const HloModule* module = conditional.GetModule();
  const int64_t replicas = module == nullptr ? 1 : std::max<int64_t>(1, module->replica_count());
  const int64_t partitions =
      module == nullptr ? 1 : std::max<int64_t>(1, module->num_partitions());
  for (int64_t replica = 0; replica < replicas; ++replica) {
    for (int64_t partition = 0; partition < partitions; ++partition) {
      std::optional<int64_t> value =
          ScalarValueOnDevice(*conditional.operand(0), DeviceIds{replica, partition});
      if (!value) return std::nullopt;
      ++devices[BranchFor(conditional, *value)];
    }
  }
  return devices;
}

// "region_1 on 1 of 4 devices, region_2 on 3".
std::string DevicesPerBranchInWords(const HloInstruction& conditional,
                                    const std::vector<int64_t>& devices) {
  int64_t total = 0;
  for (int64_t n : devices) total += n;
  std::string words;
  for (int64_t b = 0; b < int64_t(devices.size()); ++b) {
    if (devices[b] == 0) continue;
    absl::StrAppend(&words, words.empty() ? "" : ", ", conditional.branch_computation(b)->name(),
                    " on ", devices[b], words.empty() ? absl::StrCat(" of ", total, " devices") : "");
  }
  return words;
}

absl::StatusOr<ControlFlowRun> TimeWhile(const HloInstruction& loop,
                                         const LoweringOptions& options,
                                         const TimeComputationFn& time) {
  ControlFlowRun run;
  run.instruction = loop.name();
  if (std::optional<WhileTripCount> trip = ComputeWhileTripCount(loop)) {
    run.iterations = trip->count;
  } else if (options.unknown_trip_count) {
    run.iterations = *options.unknown_trip_count;
    run.note = absl::StrCat(loop.name(), ": trip count not found in the program; ",
                            run.iterations, " iterations from --trip-count");
  } else {
    run.iterations = 1;
    run.note = absl::StrCat(loop.name(),
                            ": trip count not found in the program (no known_trip_count, no "
                            "constant induction variable); timed as 1 iteration, give "
                            "--trip-count N");
  }
  SYSTOLIC_ASSIGN_OR_RETURN(ProgramTiming condition, time(*loop.while_condition()));
  SYSTOLIC_ASSIGN_OR_RETURN(ProgramTiming body, time(*loop.while_body()));
  run.condition_cycles = condition.cycles;
  run.body_cycles = body.cycles;
  run.condition = std::make_shared<const ProgramTiming>(std::move(condition));
  run.body = std::make_shared<const ProgramTiming>(std::move(body));
  run.label = absl::StrCat("loop \u00d7", run.iterations);
  return run;
}

absl::StatusOr<ControlFlowRun> TimeConditional(const HloInstruction& conditional,
                                               const TimeComputationFn& time) {
  ControlFlowRun run;
  run.instruction = conditional.name();
  std::vector<ProgramTiming> branches;
  for (int64_t b = 0; b < conditional.branch_count(); ++b) {
    SYSTOLIC_ASSIGN_OR_RETURN(ProgramTiming branch, time(*conditional.branch_computation(b)));
    branches.push_back(std::move(branch));
  }
  if (branches.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(conditional.name(), ": no branches"));
  }
  // Devices run in step (each waits for the others at its next
  // collective), so the slowest branch any device takes sets the time.
  std::optional<std::vector<int64_t>> devices = DevicesPerBranch(conditional);
  int64_t taken = -1;
  for (int64_t b = 0; b < int64_t(branches.size()); ++b) {
    const bool runs = !devices || (*devices)[b] > 0;
    if (runs && (taken < 0 || branches[b].cycles > branches[taken].cycles)) taken = b;
  }
  const std::string name = conditional.branch_computation(taken)->name();
  if (!devices && branches.size() > 1) {
    run.note = absl::StrCat(conditional.name(),
                            ": branch taken depends on values; timed its costliest branch (",
                            name, ")");
  } else if (devices && std::count(devices->begin(), devices->end(), 0) + 1 <
                            int64_t(devices->size())) {
    run.note = absl::StrCat(conditional.name(), ": the branch depends on the device (",
                            DevicesPerBranchInWords(conditional, *devices), "); timed ", name,
                            ", the slowest, which the others wait for");
  }
  run.body_cycles = branches[taken].cycles;
  run.body = std::make_shared<const ProgramTiming>(std::move(branches[taken]));
  run.label = absl::StrCat("branch ", taken, " of ", conditional.branch_count());
  return run;
}

// Where each lane of `simulation` is, by core and unit.
using LaneKey = std::tuple<int, UnitKind, int>;
std::map<LaneKey, UnitLane*> LanesByUnit(SimulationResult& simulation) {
  std::map<LaneKey, UnitLane*> lanes;
  for (UnitLane& lane : simulation.lanes) {
    lanes[{lane.core, lane.unit.kind, lane.unit.index}] = &lane;
  }
  return lanes;
}

// One computation of the run and where it sits in an iteration.
struct Piece {
  const ProgramTiming* timing;
  int64_t offset;
};

}  // namespace

bool IsControlFlow(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
      return true;
    default: return false;
  }
}

absl::StatusOr<ControlFlowRun> TimeControlFlow(const HloInstruction& instruction,
                                               const LoweringOptions& options,
                                               const TimeComputationFn& time) {
  switch (instruction.opcode()) {
    case HloOpcode::kWhile: return TimeWhile(instruction, options, time);
    case HloOpcode::kConditional: return TimeConditional(instruction, time);
    case HloOpcode::kCall: {
      ControlFlowRun run;
      run.instruction = instruction.name();
      SYSTOLIC_ASSIGN_OR_RETURN(ProgramTiming callee, time(*instruction.to_apply()));
      run.body_cycles = callee.cycles;
      run.body = std::make_shared<const ProgramTiming>(std::move(callee));
      run.label = "call";
      return run;
    }
    default:
      return absl::FailedPreconditionError(
          absl::StrCat(instruction.name(), " is not control flow"));
  }
}

void SpliceControlFlow(const ControlFlowRun& run, const std::vector<OpId>& ops, int depth,
                       LoweredProgram& lowered, SimulationResult& simulation) {
  std::vector<Piece> pieces;
  if (run.condition) pieces.push_back({run.condition.get(), 0});
  if (run.body) pieces.push_back({run.body.get(), run.condition_cycles});
  const int64_t iteration = run.condition_cycles + run.body_cycles;
  int64_t events_per_iteration = 0;
  for (const Piece& piece : pieces) events_per_iteration += EventCount(*piece.timing);
  const int64_t detailed = std::clamp<int64_t>(
      kSplicedEventBudget / std::max<int64_t>(1, events_per_iteration), 1,
      std::max<int64_t>(1, run.iterations));
  const int64_t copied = std::min(detailed, run.iterations);

  std::map<LaneKey, UnitLane*> lanes = LanesByUnit(simulation);
  std::vector<UnitLane*> touched;
  for (int core = 0; core < int(ops.size()) && core < int(lowered.op_instruction.size()); ++core) {
    const UnitLane* scalar = lanes.count({core, UnitKind::kScalar, 0})
                                 ? lanes[{core, UnitKind::kScalar, 0}]
                                 : nullptr;
    if (scalar == nullptr) continue;
    int64_t start = -1;
    for (const TraceEvent& e : scalar->events) {
      if (e.op == ops[core]) start = e.start_cycle;
    }
    if (start < 0) continue;
    std::vector<std::string>& table = lowered.op_instruction[core];
    // Each piece's ops get ids after the caller's.
    std::vector<OpId> base;
    for (const Piece& piece : pieces) {
      base.push_back(OpId(table.size()));
      if (core < int(piece.timing->lowered.op_instruction.size())) {
        const std::vector<std::string>& ops_of_piece = piece.timing->lowered.op_instruction[core];
        table.insert(table.end(), ops_of_piece.begin(), ops_of_piece.end());
      }
    }
    auto copy = [&](size_t p, int64_t at) {
      const SimulationResult& from = pieces[p].timing->simulation;
      for (const UnitLane& lane : from.lanes) {
        if (lane.core != core || lane.events.empty()) continue;
        auto target = lanes.find({core, lane.unit.kind, lane.unit.index});
        if (target == lanes.end()) continue;
        for (TraceEvent e : lane.events) {
          e.op += base[p];
          e.start_cycle += at;
          target->second->events.push_back(std::move(e));
        }
        target->second->busy_cycles += lane.busy_cycles;
        touched.push_back(target->second);
      }
      for (ControlFlowSpan span : from.control_flow_spans) {
        if (span.core != core) continue;
        span.depth += depth + 2;
        span.start_cycle += at;
        simulation.control_flow_spans.push_back(std::move(span));
      }
    };
    for (int64_t k = 0; k < copied; ++k) {
      const int64_t at = start + k * iteration;
      for (size_t p = 0; p < pieces.size(); ++p) copy(p, at + pieces[p].offset);
      if (k < kIterationSpanBudget && run.iterations > 1) {
        simulation.control_flow_spans.push_back(
            {core, depth + 1, run.instruction, absl::StrCat("iteration ", k + 1), at, iteration});
      }
    }
    if (copied < run.iterations) {
      // The remaining iterations, one event per lane with their sums.
      const int64_t repeats = run.iterations - copied;
      const int64_t from_cycle = start + copied * iteration;
      const std::string label = absl::StrCat("iterations ", copied + 1, "\u2013", run.iterations,
                                             " (repeated)");
      const OpId repeated_op = OpId(table.size());
      table.push_back(run.instruction);
      std::map<LaneKey, TraceEvent> sums;
      std::map<LaneKey, int64_t> busy;
      for (const Piece& piece : pieces) {
        for (const UnitLane& lane : piece.timing->simulation.lanes) {
          if (lane.core != core || lane.events.empty()) continue;
          const LaneKey key{core, lane.unit.kind, lane.unit.index};
          TraceEvent& sum = sums[key];
          for (const TraceEvent& e : lane.events) {
            sum.flops += e.flops;
            sum.bytes += e.bytes;
            sum.utilization += e.utilization * double(e.duration_cycles);
          }
          busy[key] += lane.busy_cycles;
        }
      }
      for (auto& [key, sum] : sums) {
        auto target = lanes.find(key);
        if (target == lanes.end()) continue;
        TraceEvent e;
        e.name = absl::StrCat(run.instruction, "/", label);
        e.op = repeated_op;
        e.start_cycle = from_cycle;
        e.duration_cycles = repeats * iteration;
        e.flops = sum.flops * double(repeats);
        e.bytes = sum.bytes * repeats;
        // Busy-weighted utilisation of one iteration, over the whole stretch.
        e.utilization = iteration > 0 ? sum.utilization / double(iteration) : 0;
        target->second->events.push_back(std::move(e));
        target->second->busy_cycles += busy[key] * repeats;
        touched.push_back(target->second);
      }
      if (run.iterations > 1) {
        simulation.control_flow_spans.push_back({core, depth + 1, run.instruction, label,
                                                 from_cycle, repeats * iteration, true});
      }
    }
    if (run.condition) {
      // The last check of the condition, which ends the loop.
      const int64_t at = start + run.iterations * iteration;
      copy(0, at);
    }
    ControlFlowSpan whole{core, depth, run.instruction, run.label, start, run.total_cycles()};
    if (run.condition) whole.iterations = run.iterations;
    simulation.control_flow_spans.push_back(std::move(whole));
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (UnitLane* lane : touched) {
    std::stable_sort(lane->events.begin(), lane->events.end(),
                     [](const TraceEvent& a, const TraceEvent& b) {
                       return a.start_cycle < b.start_cycle;
                     });
  }
}

}  // namespace systolic::device
