#include "core/analysis/measured_vs_simulated.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/analysis/event_details.h"
#include "core/analysis/program_of_event.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_parser.h"

namespace systolic::analysis {
namespace {

struct Measured {
  int64_t events = 0;
  double total_ps = 0;
};

struct MeasuredProgram {
  int64_t runs = 0;
  double run_total_ps = 0;
  absl::flat_hash_map<std::string, Measured> ops;
};

// Every op event of the device planes, by program and instruction; module
// events by program.
absl::flat_hash_map<int64_t, MeasuredProgram> MeasureOps(const trace::Profile& profile) {
  absl::flat_hash_map<int64_t, MeasuredProgram> programs;
  const trace::Timeline& timeline = profile.timeline;
  for (int32_t p = 0; p < timeline.plane_count(); ++p) {
    const trace::TimelinePlane& plane = timeline.plane(p);
    if (plane.kind() != trace::PlaneKind::kDevice) continue;
    for (int32_t l = 0; l < plane.line_count(); ++l) {
      const trace::TimelineLine& line = plane.line(l);
      const bool ops = line.kind() == trace::LaneKind::kOps;
      if (!ops && line.kind() != trace::LaneKind::kModules) continue;
      for (int64_t i = 0; i < line.size(); ++i) {
        const trace::EventRef ref{p, l, i};
        const std::optional<int64_t> program = ProgramOfEvent(profile, ref);
        if (!program) continue;
        MeasuredProgram& measured = programs[*program];
        if (ops) {
          Measured& op = measured.ops[InstructionOfEvent(timeline, ref)];
          ++op.events;
          op.total_ps += double(line.duration_ps(i));
        } else {
          ++measured.runs;
          measured.run_total_ps += double(line.duration_ps(i));
        }
      }
    }
  }
  return programs;
}

// The program as XLA ran it: its last stage.
absl::StatusOr<std::unique_ptr<HloModule>> ProgramModule(const trace::ProgramRecord& program) {
  if (program.snapshots.empty()) return absl::NotFoundError("the profile holds none of its HLO");
  return ParseAndReturnUnverifiedModule(program.snapshots.back().hlo_text);
}

ProgramMeasuredVsSimulated Compare(const trace::ProgramRecord& program, const MeasuredProgram& measured,
                                   const device::ProgramTiming& timing) {
  ProgramMeasuredVsSimulated result;
  result.program_id = program.id;
  result.name = program.name;
  result.measured_runs = measured.runs;
  result.measured_run_ps = measured.runs > 0 ? measured.run_total_ps / double(measured.runs) : 0;
  result.simulated_run_ps = timing.seconds * 1e12;
  result.simulated_flops = timing.flops;
  result.warnings = timing.warnings;
  absl::flat_hash_map<std::string, OpMeasuredVsSimulated> rows;
  for (const auto& [name, op] : measured.ops) {
    OpMeasuredVsSimulated& row = rows[name];
    row.instruction = name;
    row.measured_events = op.events;
    row.measured_ps = op.total_ps / double(op.events);
  }
  for (const device::OpTiming& op : timing.ops) {
    OpMeasuredVsSimulated& row = rows[op.instruction];
    row.instruction = op.instruction;
    row.simulated_ps = op.seconds * 1e12 / double(std::max<int64_t>(op.executions, 1));
  }
  for (auto& [name, row] : rows) result.ops.push_back(std::move(row));
  std::sort(result.ops.begin(), result.ops.end(), [](const auto& a, const auto& b) {
    const double da = std::fabs(a.difference_ps()), db = std::fabs(b.difference_ps());
    return da != db ? da > db : a.instruction < b.instruction;
  });
  return result;
}

}  // namespace

absl::StatusOr<MeasuredVsSimulated> CompareMeasuredWithSimulated(
    const trace::Profile& measured, const device::ChipSpec& chip,
    const MeasuredVsSimulatedProgress& progress) {
  if (measured.programs.empty()) {
    return absl::FailedPreconditionError(
        "the profile holds no programs to simulate (an XSpace keeps them in its /host:metadata "
        "plane; import it with `systolic import`)");
  }
  const absl::flat_hash_map<int64_t, MeasuredProgram> ops = MeasureOps(measured);
  std::vector<const trace::ProgramRecord*> todo;
  for (const trace::ProgramRecord& program : measured.programs) {
    auto found = ops.find(program.id);
    if (found != ops.end() && !found->second.ops.empty()) todo.push_back(&program);
  }
  if (todo.empty()) {
    return absl::FailedPreconditionError(
        "no op event of the profile names a program of it: nothing measured to compare");
  }
  MeasuredVsSimulated result;
  result.chip = chip.name();
  for (size_t i = 0; i < todo.size(); ++i) {
    const trace::ProgramRecord& program = *todo[i];
    absl::StatusOr<std::unique_ptr<HloModule>> module = ProgramModule(program);
    absl::StatusOr<device::ProgramTiming> timing =
        module.ok() ? device::TimeCompiledModule(**module, chip)
                    : absl::StatusOr<device::ProgramTiming>(module.status());
    if (timing.ok()) {
      result.programs.push_back(Compare(program, ops.at(program.id), *timing));
    } else {
      result.errors.push_back(absl::StrCat(program.name, " (", uint64_t(program.id),
                                           "): ", timing.status().message()));
    }
    if (progress && !progress(int64_t(i + 1), int64_t(todo.size()))) {
      return absl::CancelledError("the simulation was cancelled");
    }
  }
  return result;
}

absl::flat_hash_map<std::string, double> SimulatedTimePerExecution(const MeasuredVsSimulated& compared) {
  absl::flat_hash_map<std::string, std::pair<double, int64_t>> sums;  // simulated time, executions
  for (const ProgramMeasuredVsSimulated& program : compared.programs) {
    for (const OpMeasuredVsSimulated& op : program.ops) {
      if (op.measured_events == 0 || op.simulated_ps <= 0) continue;
      auto& [time, executions] = sums[op.instruction];
      time += op.simulated_ps * double(op.measured_events);
      executions += op.measured_events;
    }
  }
  absl::flat_hash_map<std::string, double> per_execution;
  for (const auto& [name, sum] : sums) per_execution[name] = sum.first / double(sum.second);
  return per_execution;
}

}  // namespace systolic::analysis
