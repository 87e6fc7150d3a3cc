// The profile of a front end's training steps (the lazy samples'): the
// programs it compiled, as HLO text, each compiled again for the device
// with the compiler's snapshots and simulated; the compile requests it made,
// with their causes; and each step's program run after the previous one on
// the devices.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/run_profile.h"
#include "core/device/slice.h"
#include "core/trace/profile.h"

namespace systolic::device {

struct StepsToProfile {
  ProfileHeader header;
  // The HLO text of each program, by program id.
  std::vector<std::string> programs;
  // Every compile request in order; each ran its program once at its step.
  // A miss's compile_time_ns is set to the device compiler's.
  std::vector<trace::CompileEvent> requests;
};

// Compiles each program for `slice` (null: one chip of `spec`; a program
// for several devices then runs on SliceForDevices), simulates it, and
// returns ProfileOfPrograms of the requests. Progress names the program
// being compiled ("compiling program 2 of 3"). Errors: a program that does
// not parse or compile, a slice too small for a program, Cancelled.
absl::StatusOr<trace::Profile> CompileAndProfileSteps(const StepsToProfile& steps,
                                                      const ChipSpec& spec, const Slice* slice,
                                                      const RunProgressCallback& progress = {});

}  // namespace systolic::device
