#include "views/program_runner.h"

#include <new>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/device/slice.h"

namespace systolic::views {

absl::StatusOr<trace::Profile> CompileAndRunProgram(const HloModule& module,
                                                    const ProgramRunRequest& request,
                                                    RunProgress& progress) {
  progress.Report(0.0, "loading the chip");
  auto spec = device::LoadChipSpec(request.chip_spec_path.empty() ? request.chip_preset
                                                                  : request.chip_spec_path);
  if (!spec.ok()) return spec.status();
  auto report = [&progress](double fraction, absl::string_view what) {
    progress.Report(fraction, std::string(what));
    return !progress.cancelled();
  };
  // The profile says the studio wrote it (the CLI's say which command did).
  const std::string producer = "systolic studio";
  device::DeviceRequest devices;
  if (!request.topology.empty()) {
    auto slice = device::LoadSlice(request.topology, request.chip_spec_path.empty()
                                                         ? request.chip_preset
                                                         : request.chip_spec_path);
    if (!slice.ok()) return slice.status();
    devices.topology = *std::move(slice);
  }
  // On a worker thread: an exception here would end the studio.
  try {
    return device::CompileRunAndProfile(module, *spec, devices, request.steps, producer, report);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        "the host ran out of memory compiling and simulating the program");
  }
}

}  // namespace systolic::views
