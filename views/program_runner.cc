#include "views/program_runner.h"

#include "core/device/chip_spec_loader.h"
#include "core/device/run_profile.h"

namespace systolic::views {

absl::StatusOr<trace::Profile> CompileAndRunProgram(const HloModule& module,
                                                    const ProgramRunRequest& request,
                                                    RunProgress& progress) {
  progress.Report(0.0, "loading the chip");
  auto spec = device::LoadChipSpec(request.chip_spec_path.empty() ? request.chip_preset
                                                                  : request.chip_spec_path);
  if (!spec.ok()) return spec.status();
  auto profile = device::CompileRunAndProfile(
      module, *spec, request.steps, [&progress](double fraction, absl::string_view what) {
        progress.Report(fraction, std::string(what));
        return !progress.cancelled();
      });
  if (profile.ok() && !request.topology.empty()) {
    profile->info.notes.push_back("ran on one chip of the " + request.topology + " topology");
  }
  return profile;
}

}  // namespace systolic::views
