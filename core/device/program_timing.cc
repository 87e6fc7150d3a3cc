#include "core/device/program_timing.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/device/chip_figures.h"
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

absl::StatusOr<ProgramTiming> TimeCompiledModule(const HloModule& module, const ChipSpec& spec,
                                                 const LoweringOptions& options) {
  ProgramTiming timing;
  timing.chip = spec.name();
  SYSTOLIC_ASSIGN_OR_RETURN(timing.lowered, LowerModule(module, spec, options));
  SYSTOLIC_ASSIGN_OR_RETURN(timing.simulation, DeviceSimulator(spec).Run(timing.lowered.program));
  const SimulationResult& sim = timing.simulation;
  timing.cycles = sim.cycles;
  timing.seconds = sim.seconds();
  timing.peak_flops_per_second = PeakFlopsPerSecond(spec);

  absl::flat_hash_map<std::string, Accumulator> by_instruction;
  for (const UnitLane& lane : sim.lanes) {
    for (const TraceEvent& event : lane.events) {
      Accumulator& a = by_instruction[timing.lowered.InstructionOf(lane.core, event.op)];
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
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  const double vector_peak = double(cores) * double(VregElements(spec)) *
                             spec.vector_unit().ops_per_cycle() * clock;
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
    op.unit = UnitKindName(busiest);
    const double covered = double(a.CoveredCycles()) / clock;
    if (op.seconds > 0 && covered > 0) {
      switch (busiest) {
        case UnitKind::kMxu: op.utilization = op.flops / (covered * timing.peak_flops_per_second); break;
        case UnitKind::kVector: op.utilization = op.flops / (covered * vector_peak); break;
        case UnitKind::kDma: op.utilization = double(op.bytes) / (covered * HbmBytesPerSecond(spec)); break;
        case UnitKind::kScalar:
        case UnitKind::kIci: op.utilization = 1; break;
      }
    }
    timing.flops += op.flops;
    timing.sum_of_op_seconds += op.seconds;
    timing.ops.push_back(std::move(op));
  }
  timing.flops_per_second = timing.seconds > 0 ? timing.flops / timing.seconds : 0;
  return timing;
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
                                                const ChipSpec& spec, CompileOptions options) {
  TimedCompilation result;
  SYSTOLIC_ASSIGN_OR_RETURN(result.compilation,
                            CompileForChip(std::move(module), spec, std::move(options)));
  SYSTOLIC_ASSIGN_OR_RETURN(result.timing, TimeCompiledModule(*result.compilation.module, spec));
  return result;
}

}  // namespace systolic::device
