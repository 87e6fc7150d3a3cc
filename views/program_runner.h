// The studio's one hook into compiling and running a program: the "Compile
// and run…" dialog fills a request, a worker thread calls
// CompileAndRunProgram, and the profile it returns opens like a file. The
// work is the core's (device::CompileRunAndProfile, which plans the devices
// as the CLI does); this adapts the request and the progress to it. With a
// topology the program runs on its chips (device d on chip d; a sharded
// module that names no partition count spreads over them); without one, a
// multi-device program runs on the squarest slice that holds it.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/trace/profile.h"
#include "views/run_progress.h"

namespace systolic::views {

struct ProgramRunRequest {
  std::string program_path;    // the file the program came from
  std::string chip_preset;     // "v4"; empty when chip_spec_path is set
  std::string chip_spec_path;  // a chip spec in protobuf text format
  std::string topology;        // "2x2", "4x4x4"
  int64_t steps = 1;
  int32_t mxu_size = 0;        // a square MXU of this many PEs a side; 0: the chip's own
  // The spec file when one is given, else the preset.
  const std::string& chip() const { return chip_spec_path.empty() ? chip_preset : chip_spec_path; }
};

// "v5e", "v5e:2x2", "v4:2x2x2:3" (chip preset or spec file, then the
// topology and the steps): the studio's --run.
absl::StatusOr<ProgramRunRequest> ParseRunRequest(const std::string& text);

// What the run is on, for lists of runs: "v5e · 2x2 · MXU 256² · 3 steps".
std::string DescribeRequest(const ProgramRunRequest& request);

// Compiles `module` for the requested chip and topology, runs it `steps`
// times and returns the profile (snapshots after every pass, compiles,
// timelines). Runs on a worker thread; reports to `progress` and stops with
// Cancelled when progress.cancelled().
absl::StatusOr<trace::Profile> CompileAndRunProgram(const HloModule& module,
                                                    const ProgramRunRequest& request,
                                                    RunProgress& progress);

}  // namespace systolic::views
