// The one "compile, run and profile" flow that the CLI's `run` and
// `profile` and the studio's "Compile and run" share: the devices are
// planned (device_plan.h), the program compiled, lowered and simulated on
// one chip or on a slice, optionally evaluated for its values (and against
// the uncompiled module), and its profile made. Callers only read flags or
// dialogs and show what comes back.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/compiler.h"
#include "core/device/device_plan.h"
#include "core/device/program_timing.h"
#include "core/device/run_profile.h"
#include "core/device/slice_timing.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"
#include "core/trace/profile.h"

namespace systolic::device {

struct RunRequest {
  DeviceRequest devices;
  CompileOptions compile;
  LoweringOptions lowering;
  // Values are computed only when asked: without them only shapes are
  // used, so programs too big for the host can still be timed.
  bool compute_values = false;
  // One argument list per device, or a single one every device shares;
  // empty: random arguments from `seed` (each device its own stream). A
  // module laid out across partitions takes whole arguments (one list).
  std::vector<std::vector<Literal>> arguments;
  uint64_t seed = 0;
  // Also evaluate the uncompiled module on the same arguments.
  bool compare_reference = false;
};

// A program compiled and run on its devices.
struct ProgramRun {
  std::string module_name;
  ChipSpec chip;
  DevicePlan plan;
  std::optional<TimedCompilation> on_chip;       // run on one chip
  std::optional<TimedSliceCompilation> on_slice;  // run on plan.slice
  // The module was laid out across partitions: it took whole arguments and
  // `results` are each replica's gathered result, not each device's.
  bool gathered = false;
  std::vector<Literal> results;    // with compute_values: per device or per replica
  std::vector<Literal> reference;  // with compare_reference: the same of the uncompiled module

  const CompilationResult& compilation() const;
  const ProgramTiming& timing() const;  // one device's run
  // "v4" or "v4:2x2".
  std::string TargetName() const;
  // The profile of `steps` runs, titled "<module> on <target>".
  // `progress` as ProfileOfPrograms takes it.
  trace::Profile Profile(int64_t steps, const std::string& producer,
                         const RunProgressCallback& progress = {}) const;
};

// Plans the devices of `module` on `chip` as `request.devices` says, then
// compiles, simulates and (when asked) evaluates it; the request's
// arguments are moved in, not copied. Progress runs 0..0.9;
// Cancelled when `progress` says stop. Errors carry the module's name.
absl::StatusOr<ProgramRun> CompileAndRun(std::unique_ptr<HloModule> module, const ChipSpec& chip,
                                         RunRequest request,
                                         const RunProgressCallback& progress = {});

// Timing only: compiles a copy of `module`, runs it `steps` times on its
// planned devices and returns the profile written by `producer`.
absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module, const ChipSpec& chip,
                                                    const DeviceRequest& devices, int64_t steps,
                                                    const std::string& producer,
                                                    const RunProgressCallback& progress = {},
                                                    const LoweringOptions& lowering = {});

}  // namespace systolic::device
