// The profile of a program compiled and run on a simulated chip: the chip,
// the program with the compiler's snapshot after every pass, its compile
// (then a cache hit for every later step), the run's steps, and the chip's
// timeline (a plane for the chip, a lane per core and unit, every event
// named by its HLO instruction with FLOPs, bytes and utilisation). The CLI's
// `run --profile` and the studio's "Compile and run" both write this.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

#include "core/compiler/compiler.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/program_timing.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/trace/profile.h"

namespace systolic::device {

// `steps` runs of the program back to back (each takes the simulated time).
trace::Profile ProfileOfRun(const std::string& title, const ChipSpec& spec,
                            const CompilationResult& compilation, const ProgramTiming& timing,
                            int64_t steps = 1);

// The same for a program run on a slice: a plane per device (the first
// kMaxChipPlanes of them, see ici_trace.h) with its chip's lanes and the
// ICI transfers it sent and received, flows from sender to receiver, and the
// slice's topology.
trace::Profile ProfileOfSliceRun(const std::string& title, const Slice& slice,
                                 const CompilationResult& compilation, const SliceTiming& timing,
                                 int64_t steps = 1);

// Tells what is happening (fraction done in [0, 1]); returns false to stop.
using RunProgressCallback = std::function<bool(double fraction, absl::string_view what)>;

// Compiles a copy of `module` for `spec`, lowers and simulates it, and
// returns the profile of `steps` runs. Stops with Cancelled when `progress`
// says so. A program for several devices runs on SliceForDevices.
absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module,
                                                    const ChipSpec& spec, int64_t steps,
                                                    const RunProgressCallback& progress = {});

// The same on the chips of `slice` (ProfileOfSliceRun).
absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module, const Slice& slice,
                                                    int64_t steps,
                                                    const RunProgressCallback& progress = {});

}  // namespace systolic::device
