// The profile of programs compiled and run on simulated chips: the chip,
// each program with the compiler's snapshot after every pass, every compile
// request (a miss with its cause, or a cache hit), the run's steps, and the
// devices' timeline (a plane per chip, a lane per core and unit, every event
// named by its HLO instruction with FLOPs, bytes and utilisation; on a slice
// also the ICI transfers). program_run.h makes it for the CLI's `run
// --profile` and `profile` and the studio's "Compile and run".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include "core/compiler/compiler.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/program_timing.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/trace/profile.h"

namespace systolic::device {

// Who wrote the profile ("systolic profile", "systolic studio") and what of.
struct ProfileHeader {
  std::string producer;
  std::string title;
};

// A compiled program and its simulated run on the devices.
struct TimedProgram {
  int64_t id = 1;
  std::string fingerprint;  // of the front end's graph; may be empty
  const CompilationResult* compilation = nullptr;
  const ProgramTiming* chip = nullptr;  // one device's run (every device runs the same)
  // Its collectives' ICI transfers when run on a slice; null on one chip.
  const SliceTiming* slice_timing = nullptr;
};

// One run of program `program_id` during training step `step`.
struct ProgramExecution {
  int64_t step = 0;
  int64_t program_id = 0;
};

// The general profile: `executions` run back to back on the devices (each
// program's simulated run repeated at its start), one StepRecord per step
// (from its first execution's start to its last one's end, with the program
// of its first execution). `compile_events` are kept as given, each stamped
// with the start of its step on the timeline. `slice` null: one chip of
// `spec`; otherwise a plane per device (the first kMaxChipPlanes, see
// ici_trace.h) with the ICI transfers it sent and received, flows from
// sender to receiver, and the slice's topology.
// Tells what is happening (fraction done in [0, 1]); returns false to stop.
using RunProgressCallback = std::function<bool(double fraction, absl::string_view what)>;

// `progress` hears of each chip's lanes and each step placed (building the
// timeline of a large slice takes longer than simulating it); when it says
// stop, the profile is left incomplete and the caller drops it.
trace::Profile ProfileOfPrograms(const ProfileHeader& header, const ChipSpec& spec,
                                 const Slice* slice, absl::Span<const TimedProgram> programs,
                                 std::vector<trace::CompileEvent> compile_events,
                                 absl::Span<const ProgramExecution> executions,
                                 const RunProgressCallback& progress = {});

// One program run `steps` times: compiled at the first step, then found in
// the cache at every later one.
trace::Profile ProfileOfRun(const std::string& title, const ChipSpec& spec,
                            const CompilationResult& compilation, const ProgramTiming& timing,
                            int64_t steps = 1, const std::string& producer = "systolic run",
                            const RunProgressCallback& progress = {});

// The same for a program run on a slice.
trace::Profile ProfileOfSliceRun(const std::string& title, const Slice& slice,
                                 const CompilationResult& compilation, const SliceTiming& timing,
                                 int64_t steps = 1, const std::string& producer = "systolic run",
                            const RunProgressCallback& progress = {});

}  // namespace systolic::device
