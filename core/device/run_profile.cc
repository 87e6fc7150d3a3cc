#include "core/device/run_profile.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/core_units.h"
#include "core/device/ici_trace.h"
#include "core/device/record_buffer_assignment.h"
#include "core/trace/device_topology.h"
#include "core/trace/shifted_timeline.h"

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

// The profile's info and chip.
trace::Profile ProfileOfChip(const ProfileHeader& header, const ChipSpec& spec) {
  trace::Profile p;
  p.info.producer = header.producer;
  p.info.title = header.title;
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
  return p;
}

// The program with its snapshots, shardings and buffers.
trace::ProgramRecord ProgramRecordOf(const TimedProgram& timed) {
  const CompilationResult& compilation = *timed.compilation;
  trace::ProgramRecord program;
  program.id = timed.id;
  program.name = compilation.module->name();
  program.fingerprint = timed.fingerprint;
  for (const PassSnapshot& s : compilation.history.snapshots()) {
    program.snapshots.push_back(ToModuleSnapshot(s));
  }
  program.shardings = trace::CollectShardings(*compilation.module);
  // The memory chart reads the compiler's buffer assignment.
  if (compilation.buffer_assignment) {
    program.buffer_assignment = RecordBufferAssignment(*compilation.buffer_assignment);
  }
  return program;
}

// Loops, their iterations, branches and calls: a lane per core and nesting
// depth ("core 0 / control flow 1"), under the core's units.
void AddControlFlowLanes(trace::TimelinePlane& plane, const ChipSpec& spec,
                         const std::vector<device::ControlFlowSpan>& spans) {
  std::map<std::pair<int, int>, int32_t> line_of;  // (core, depth) -> line id
  for (const device::ControlFlowSpan& span : spans) line_of.emplace(std::pair(span.core, span.depth), -1);
  for (auto& [key, id] : line_of) {
    id = plane.AddLine(absl::StrCat("core ", key.first, " / control flow ", key.second + 1),
                       trace::LaneKind::kOther, key.first, -1)
             .id();
  }
  for (const device::ControlFlowSpan& span : spans) {
    std::vector<trace::Stat> stats = {plane.MakeStringStat("hlo_op", span.instruction),
                                      plane.MakeIntStat("cycles", span.duration_cycles)};
    if (span.repeated) stats.push_back(plane.MakeIntStat("repeated", 1));
    if (span.iterations > 0) stats.push_back(plane.MakeIntStat("iterations", span.iterations));
    plane.AddEvent(line_of.at({span.core, span.depth}),
                   absl::StrCat(span.instruction, " ", span.label),
                   CyclesToPs(spec, span.start_cycle), CyclesToPs(spec, span.duration_cycles),
                   stats);
  }
}

// The event name of `instruction`, carrying it as its hlo_op as imported
// profiles do.
int32_t InstructionEventName(trace::TimelinePlane& plane, const std::string& instruction) {
  const int32_t known = plane.event_metadata_count();
  const int32_t id = plane.InternEventName(instruction);
  if (id >= known) {
    plane.mutable_event_metadata(id).stats.push_back(plane.MakeStringStat("hlo_op", instruction));
  }
  return id;
}

// An instruction whose matrix work ran at a multiple of the bf16 rate (int8
// on an MXU with an int8 mode) says so on its name ("mxu_rate"), so its
// share of the peak is taken against that rate.
void MarkMxuRate(trace::TimelinePlane& plane, const std::string& instruction, int64_t macs_per_step) {
  if (macs_per_step <= 1) return;
  trace::EventMetadata& metadata = plane.mutable_event_metadata(InstructionEventName(plane, instruction));
  const int32_t rate = plane.InternStatName("mxu_rate");
  for (const trace::Stat& s : metadata.stats) {
    if (s.name_id == rate) return;
  }
  metadata.stats.push_back(plane.MakeIntStat("mxu_rate", macs_per_step));
}

// The step of its kernel a device op ran ("mxu m0 n2 k7" of
// "dot.3/mxu m0 n2 k7"): the instruction is the event's name already.
absl::string_view KernelStepOf(absl::string_view op_name, absl::string_view instruction) {
  absl::string_view step = op_name;
  if (absl::ConsumePrefix(&step, instruction) && absl::ConsumePrefix(&step, "/")) return step;
  return op_name;
}

// The plane of device `chip` in one run of `program`: the run on the steps
// lane and a lane per unit of each core (an ICI unit only when it ran
// something).
void AddChipPlane(trace::Timeline& timeline, const ChipSpec& spec, const std::string& program,
                  const ProgramTiming& timing, int32_t chip) {
  trace::TimelinePlane& plane =
      timeline.AddPlane(absl::StrCat("/device:TPU:", chip), trace::PlaneKind::kDevice, chip);
  plane.mutable_stats().push_back(plane.MakeDoubleStat("clock_hz", device::ClockHz(spec)));
  plane.AddLine("steps", trace::LaneKind::kSteps)
      .Append(0, CyclesToPs(spec, timing.cycles), plane.InternEventName(program));
  for (const device::UnitLane& lane : timing.simulation.lanes) {
    if (lane.unit.kind == device::UnitKind::kIci && lane.events.empty()) continue;
    trace::TimelineLine& line =
        plane.AddLine(lane.name, KindOf(lane.unit.kind), lane.core,
                      lane.unit.kind == device::UnitKind::kMxu ||
                              lane.unit.kind == device::UnitKind::kDma
                          ? lane.unit.index
                          : -1);
    for (const device::TraceEvent& e : lane.events) {
      const std::string& instruction = timing.lowered.InstructionOf(lane.core, e.op);
      MarkMxuRate(plane, instruction, e.macs_per_step);
      // What every event of the instruction shares is its name's; what
      // tiles of one kernel share is stored once as the lane's stat set.
      std::vector<trace::Stat> stats = {plane.MakeDoubleStat("flops", e.flops),
                                        plane.MakeIntStat("bytes", e.bytes),
                                        plane.MakeDoubleStat("utilisation", e.utilization)};
      if (e.stall_cycles > 0) {
        stats.push_back(plane.MakeIntStat("stall_cycles", e.stall_cycles));
        stats.push_back(
            plane.MakeStringStat("stall_cause", device::StallCauseName(e.stall_cause)));
      }
      line.Append(CyclesToPs(spec, e.start_cycle), CyclesToPs(spec, e.duration_cycles),
                  InstructionEventName(plane, instruction), stats,
                  plane.InternString(KernelStepOf(e.name, instruction)));
    }
  }
  AddControlFlowLanes(plane, spec, timing.simulation.control_flow_spans);
}

// The devices whose planes the profile shows: every one up to
// kMaxChipPlanes; past that on several slices, the first chips of every
// slice alike, so transfers between slices (DCN) are drawn with both ends.
std::vector<int32_t> ShownDevices(const TimedProgram& program, const Slice* slice) {
  const int64_t devices = program.slice_timing ? program.slice_timing->device_count() : 1;
  std::vector<int32_t> shown;
  const int64_t slices = slice != nullptr ? slice->topology.slices() : 1;
  if (devices <= kMaxChipPlanes || slices <= 1) {
    for (int64_t d = 0; d < std::min<int64_t>(devices, kMaxChipPlanes); ++d) shown.push_back(int32_t(d));
    return shown;
  }
  const int64_t per_slice = slice->topology.chips_per_slice();
  const int64_t each = std::max<int64_t>(1, kMaxChipPlanes / slices);
  for (int64_t s = 0; s < slices && int64_t(shown.size()) < kMaxChipPlanes; ++s) {
    for (int64_t c = 0; c < std::min(each, per_slice); ++c) {
      const int64_t d = s * per_slice + c;
      if (d < devices) shown.push_back(int32_t(d));
    }
  }
  return shown;
}

// One run of `program` from time 0 on every shown device: simulated once,
// then placed at the start of each of its executions. `step_name` names it
// on the steps lane.
trace::Timeline TimelineOfOneRun(const ChipSpec& spec, const Slice* slice,
                                 const TimedProgram& program, const std::string& step_name,
                                 const std::function<bool(int32_t chip, int32_t chips)>& chip_done) {
  trace::Timeline run;
  const std::vector<int32_t> shown = ShownDevices(program, slice);
  const int32_t chips = int32_t(shown.size());
  for (int32_t i = 0; i < chips; ++i) {
    AddChipPlane(run, spec, step_name, *program.chip, shown[size_t(i)]);
    if (!chip_done(i, chips)) return run;
  }
  if (slice != nullptr && program.slice_timing != nullptr) {
    AddIciTransfers(*slice, *program.slice_timing, run);
  }
  return run;
}

// One compile per step: the first a miss, every later one a cache hit.
std::vector<trace::CompileEvent> CompiledOnceThenCached(int64_t program_id,
                                                        int64_t compile_time_ns, int64_t steps) {
  std::vector<trace::CompileEvent> events;
  for (int64_t step = 0; step < steps; ++step) {
    trace::CompileEvent compile;
    compile.program_id = program_id;
    compile.step = step;
    compile.cache_hit = step > 0;
    compile.compile_time_ns = step == 0 ? compile_time_ns : 0;
    if (step == 0) compile.cause = {trace::RecompilationKind::kFirstCompile, "first compile"};
    events.push_back(compile);
  }
  return events;
}

std::vector<ProgramExecution> EveryStepRuns(int64_t program_id, int64_t steps) {
  std::vector<ProgramExecution> executions;
  for (int64_t step = 0; step < steps; ++step) executions.push_back({step, program_id});
  return executions;
}

}  // namespace

trace::Profile ProfileOfPrograms(const ProfileHeader& header, const ChipSpec& spec,
                                 const Slice* slice, absl::Span<const TimedProgram> programs,
                                 std::vector<trace::CompileEvent> compile_events,
                                 absl::Span<const ProgramExecution> executions,
                                 const RunProgressCallback& progress) {
  // Half the work is the chips' lanes of each program, half placing the steps.
  bool stopped = false;
  auto report = [&](double fraction, const std::string& what) {
    if (!stopped && progress && !progress(fraction, what)) stopped = true;
    return !stopped;
  };
  trace::Profile p = ProfileOfChip(header, spec);
  p.topology = slice ? TopologyRecordOf(slice->topology, slice->spec)
                     : trace::TopologyForDevices(1);  // one chip
  absl::flat_hash_map<int64_t, const TimedProgram*> program_by_id;
  absl::flat_hash_map<int64_t, trace::Timeline> run_of_program;
  int64_t devices = 1;
  const TimedProgram* widest = nullptr;  // the program on the most devices
  for (const TimedProgram& program : programs) {
    p.programs.push_back(ProgramRecordOf(program));
    program_by_id[program.id] = &program;
    // Front ends give every program the same name ("SyncTensorsGraph"); the
    // steps lane tells them apart by id as the recompilations view does.
    const std::string& name = program.compilation->module->name();
    const std::string step_name =
        programs.size() > 1 ? absl::StrCat(name, " #", program.id) : name;
    const double done_before = double(run_of_program.size()) / double(programs.size());
    auto chip_done = [&](int32_t chip, int32_t chips) {
      return report(0.5 * (done_before + double(chip + 1) / double(chips) / double(programs.size())),
                    absl::StrCat("building the timeline of ", name, ": chip ", chip + 1, " of ", chips));
    };
    run_of_program.emplace(program.id, TimelineOfOneRun(spec, slice, program, step_name, chip_done));
    if (stopped) return p;
    if (program.slice_timing && program.slice_timing->device_count() > devices) {
      devices = program.slice_timing->device_count();
      widest = &program;
    }
  }
  for (const TimedProgram& program : programs) {
    for (const std::string& warning : program.chip->warnings) {
      p.info.notes.push_back(absl::StrCat(program.compilation->module->name(), ": ", warning));
    }
  }
  if (devices > kMaxChipPlanes && widest != nullptr) {
    const int64_t shown = int64_t(ShownDevices(*widest, slice).size());
    const int64_t slices = slice != nullptr ? slice->topology.slices() : 1;
    const std::string which =
        slices <= 1       ? absl::StrCat("the first ", shown)
        : shown >= slices ? absl::StrCat("the first ", shown / slices, " chips of each of its ", slices, " slices")
                          : absl::StrCat("the first chip of each of the first ", shown, " of its ", slices, " slices");
    p.info.notes.push_back(absl::StrCat("the timeline shows ", which, " of ", devices,
                                        " devices; every device runs the same program"));
  }

  trace::RunRecord run{1, header.title, 0, 0, {}};
  absl::flat_hash_map<int64_t, int64_t> step_start_ps;
  for (size_t e = 0; e < executions.size(); ++e) {
    const ProgramExecution& execution = executions[e];
    if (!report(0.5 + 0.5 * double(e) / double(executions.size()),
                absl::StrCat("placing step ", e + 1, " of ", executions.size(), " on the timeline"))) {
      return p;
    }
    const auto program = program_by_id.find(execution.program_id);
    if (program == program_by_id.end()) continue;  // not compiled for the device
    const int64_t start_ps = run.end_ps;
    const int64_t duration_ps = CyclesToPs(spec, program->second->chip->cycles);
    trace::AppendShiftedTimeline(run_of_program.at(execution.program_id), start_ps, p.timeline);
    if (slice && program->second->slice_timing) {
      AddLinkTraffic(*program->second->slice_timing, /*steps=*/1, p.topology);
    }
    run.end_ps = start_ps + duration_ps;
    if (!run.steps.empty() && run.steps.back().number == execution.step) {
      run.steps.back().duration_ps = run.end_ps - run.steps.back().start_ps;
    } else {
      run.steps.push_back({execution.step, execution.program_id, start_ps, duration_ps});
      step_start_ps.emplace(execution.step, start_ps);
    }
  }
  p.runs.push_back(std::move(run));

  for (trace::CompileEvent& compile : compile_events) {
    if (const auto start = step_start_ps.find(compile.step); start != step_start_ps.end()) {
      compile.timestamp_ns = start->second / 1000;
    }
  }
  p.compile_events = std::move(compile_events);
  p.timeline.Finalize();
  return p;
}

trace::Profile ProfileOfRun(const std::string& title, const ChipSpec& spec,
                            const CompilationResult& compilation, const ProgramTiming& timing,
                            int64_t steps, const std::string& producer,
                            const RunProgressCallback& progress) {
  steps = std::max<int64_t>(1, steps);
  const TimedProgram program{1, "", &compilation, &timing, nullptr};
  return ProfileOfPrograms({producer, title}, spec, nullptr, {program},
                           CompiledOnceThenCached(program.id, compilation.compile_time_ns, steps),
                           EveryStepRuns(program.id, steps), progress);
}

trace::Profile ProfileOfSliceRun(const std::string& title, const Slice& slice,
                                 const CompilationResult& compilation, const SliceTiming& timing,
                                 int64_t steps, const std::string& producer,
                                 const RunProgressCallback& progress) {
  steps = std::max<int64_t>(1, steps);
  const TimedProgram program{1, "", &compilation, &timing.chip, &timing};
  return ProfileOfPrograms({producer, title}, slice.spec, &slice, {program},
                           CompiledOnceThenCached(program.id, compilation.compile_time_ns, steps),
                           EveryStepRuns(program.id, steps), progress);
}

}  // namespace systolic::device
