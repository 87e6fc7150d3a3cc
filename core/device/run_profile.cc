#include "core/device/run_profile.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/core_units.h"
#include "core/device/ici_trace.h"
#include "core/trace/device_topology.h"
#include "core/trace/memory_timeline.h"

namespace systolic::device {
namespace {

trace::ModuleSnapshot ToModuleSnapshot(const PassSnapshot& s) {
  trace::ModuleSnapshot m;
  m.pass_name = s.pass_name;
  m.pass_duration_ns = s.duration_ns;
  m.changed = s.changed;
  m.hlo_text = s.hlo_text();
  m.instruction_count = s.counts().instructions;
  m.computation_count = s.counts().computations;
  for (const InstructionRecord& r : s.instructions()) {
    trace::InstructionProvenance p;
    p.unique_id = r.unique_id;
    p.name = r.name;
    // An original instruction is its own origin; the profile leaves those empty.
    if (!(r.origins.size() == 1 && r.origins[0].unique_id == r.unique_id)) {
      for (const ProvenanceEntry& o : r.origins) p.origins.push_back({o.unique_id, o.name});
    }
    m.provenance.push_back(std::move(p));
  }
  return m;
}

trace::LaneKind KindOf(device::UnitKind kind) {
  switch (kind) {
    case device::UnitKind::kMxu: return trace::LaneKind::kMxu;
    case device::UnitKind::kVector: return trace::LaneKind::kVector;
    case device::UnitKind::kDma: return trace::LaneKind::kDma;
    case device::UnitKind::kScalar: return trace::LaneKind::kScalar;
    case device::UnitKind::kIci: return trace::LaneKind::kIci;
  }
  return trace::LaneKind::kOther;
}

// The profile's info and chip; the program with its snapshots, compiled
// once and then found in the cache at every later step; the run's steps.
trace::Profile ProfileOfProgram(const std::string& title, const ChipSpec& spec,
                                const CompilationResult& compilation, int64_t run_cycles,
                                int64_t steps) {
  trace::Profile p;
  p.info.producer = "systolic run";
  p.info.title = title;
  p.info.created_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  p.chip.name = spec.name();
  p.chip.spec_text = device::ChipSpecToText(spec);
  p.chip.peak_flops_per_second = device::PeakFlopsPerSecond(spec);
  p.chip.hbm_bytes = device::HbmBytes(spec);
  p.chip.hbm_bandwidth_bytes_per_second = device::HbmBytesPerSecond(spec);
  p.chip.clock_hz = device::ClockHz(spec);
  p.chip.cores_per_chip = spec.tensor_cores_per_chip();
  p.chip.mxus_per_core = spec.mxu().count();
  p.chip.mxu_rows = spec.mxu().rows();
  p.chip.mxu_cols = spec.mxu().cols();

  trace::ProgramRecord program;
  program.id = 1;
  program.name = compilation.module->name();
  for (const PassSnapshot& s : compilation.history.snapshots()) {
    program.snapshots.push_back(ToModuleSnapshot(s));
  }
  program.shardings = trace::CollectShardings(*compilation.module);
  // The memory chart reads the compiler's buffer assignment.
  if (compilation.buffer_assignment) {
    program.buffer_assignment = trace::RecordBufferAssignment(*compilation.buffer_assignment);
  }
  p.programs.push_back(std::move(program));

  for (int64_t step = 0; step < steps; ++step) {
    trace::CompileEvent compile;
    compile.program_id = 1;
    compile.step = step;
    compile.cache_hit = step > 0;
    compile.compile_time_ns = step == 0 ? compilation.compile_time_ns : 0;
    compile.cause = step == 0 ? "first compile" : "";
    p.compile_events.push_back(compile);
  }

  const int64_t duration_ps = CyclesToPs(spec, run_cycles);
  trace::RunRecord run{1, "systolic run", 0, duration_ps * steps, {}};
  for (int64_t step = 0; step < steps; ++step) {
    run.steps.push_back({step, 1, step * duration_ps, duration_ps});
  }
  p.runs.push_back(run);
  return p;
}

// The plane of device `chip`: the steps and a lane per unit of each core
// (an ICI unit only when it ran something).
void AddChipPlane(trace::Profile& p, const ChipSpec& spec, const ProgramTiming& timing,
                  int32_t chip, int64_t steps) {
  const int64_t duration_ps = CyclesToPs(spec, timing.cycles);
  trace::TimelinePlane& plane =
      p.timeline.AddPlane(absl::StrCat("/device:TPU:", chip), trace::PlaneKind::kDevice, chip);
  plane.mutable_stats().push_back(plane.MakeDoubleStat("clock_hz", device::ClockHz(spec)));
  trace::TimelineLine& step_line = plane.AddLine("steps", trace::LaneKind::kSteps);
  for (int64_t step = 0; step < steps; ++step) {
    step_line.Append(step * duration_ps, duration_ps, plane.InternEventName(p.programs[0].name));
  }
  for (const device::UnitLane& lane : timing.simulation.lanes) {
    if (lane.unit.kind == device::UnitKind::kIci && lane.events.empty()) continue;
    trace::TimelineLine& line =
        plane.AddLine(lane.name, KindOf(lane.unit.kind), lane.core,
                      lane.unit.kind == device::UnitKind::kMxu ||
                              lane.unit.kind == device::UnitKind::kDma
                          ? lane.unit.index
                          : -1);
    const int32_t id = line.id();
    for (int64_t step = 0; step < steps; ++step) {
      const int64_t offset = step * duration_ps;
      for (const device::TraceEvent& e : lane.events) {
        const std::string& instruction = timing.lowered.InstructionOf(lane.core, e.op);
        std::vector<trace::Stat> stats = {
            plane.MakeStringStat("hlo_op", instruction),
            plane.MakeStringStat("long_name", e.name),
            plane.MakeIntStat("cycles", e.duration_cycles),
            plane.MakeDoubleStat("flops", e.flops),
            plane.MakeIntStat("bytes", e.bytes),
            plane.MakeDoubleStat("utilisation", e.utilization)};
        if (e.stall_cycles > 0) {
          stats.push_back(plane.MakeIntStat("stall_cycles", e.stall_cycles));
          stats.push_back(
              plane.MakeStringStat("stall_cause", device::StallCauseName(e.stall_cause)));
        }
        plane.AddEvent(id, instruction, offset + CyclesToPs(spec, e.start_cycle),
                       CyclesToPs(spec, e.duration_cycles), stats);
      }
    }
  }
}

}  // namespace

trace::Profile ProfileOfRun(const std::string& title, const ChipSpec& spec,
                            const CompilationResult& compilation, const ProgramTiming& timing,
                            int64_t steps) {
  steps = std::max<int64_t>(1, steps);
  trace::Profile p = ProfileOfProgram(title, spec, compilation, timing.cycles, steps);
  p.topology = trace::TopologyForDevices(1);  // one chip
  AddChipPlane(p, spec, timing, 0, steps);
  p.timeline.Finalize();
  return p;
}

trace::Profile ProfileOfSliceRun(const std::string& title, const Slice& slice,
                                 const CompilationResult& compilation, const SliceTiming& timing,
                                 int64_t steps) {
  steps = std::max<int64_t>(1, steps);
  trace::Profile p = ProfileOfProgram(title, slice.spec, compilation, timing.chip.cycles, steps);
  p.topology = TopologyRecordOf(slice.topology, slice.spec);
  const int64_t shown = std::min<int64_t>(timing.device_count(), kMaxChipPlanes);
  if (shown < timing.device_count()) {
    p.info.notes.push_back(absl::StrCat("the timeline shows the first ", shown, " of ",
                                        timing.device_count(),
                                        " devices; every device runs the same program"));
  }
  for (int32_t chip = 0; chip < shown; ++chip) {
    AddChipPlane(p, slice.spec, timing.chip, chip, steps);
  }
  AddIciTransfers(slice, timing, steps, p.timeline);
  p.timeline.Finalize();
  return p;
}

absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module,
                                                    const ChipSpec& spec, int64_t steps,
                                                    const RunProgressCallback& progress) {
  auto report = [&](double fraction, absl::string_view what) {
    return !progress || progress(fraction, what);
  };
  const SpmdDeviceCounts counts = RequiredDeviceCounts(module);
  if (const int64_t devices = counts.replicas * counts.partitions; devices > 1) {
    auto slice = SliceForDevices(spec, devices);
    if (!slice.ok()) return slice.status();
    return CompileRunAndProfile(module, *slice, steps, progress);
  }
  if (!report(0.05, "compiling")) return absl::CancelledError("cancelled before compiling");
  auto timed = CompileAndTime(module.Clone(), spec);
  if (!timed.ok()) return timed.status();
  if (!report(0.9, "writing the profile")) return absl::CancelledError("cancelled after the run");
  trace::Profile profile = ProfileOfRun(absl::StrCat(module.name(), " on ", spec.name()), spec,
                                        timed->compilation, timed->timing, steps);
  report(1.0, "done");
  return profile;
}

}  // namespace systolic::device

namespace systolic::device {

absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module, const Slice& slice,
                                                    int64_t steps,
                                                    const RunProgressCallback& progress) {
  auto report = [&](double fraction, absl::string_view what) {
    return !progress || progress(fraction, what);
  };
  if (!report(0.05, "compiling")) return absl::CancelledError("cancelled before compiling");
  auto timed = CompileAndTimeOnSlice(module.Clone(), slice);
  if (!timed.ok()) return timed.status();
  if (!report(0.9, "writing the profile")) return absl::CancelledError("cancelled after the run");
  trace::Profile profile =
      ProfileOfSliceRun(absl::StrCat(module.name(), " on ", slice.Name()), slice,
                        timed->compilation, timed->timing, steps);
  report(1.0, "done");
  return profile;
}

}  // namespace systolic::device
