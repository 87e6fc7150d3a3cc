#include "views/program_runner.h"

namespace systolic::views {

absl::StatusOr<trace::Profile> CompileAndRunProgram(const HloModule& module,
                                                    const ProgramRunRequest& request,
                                                    RunProgress& progress) {
  // The hook waiting for the core: replace this body with the core's
  // compile-and-run entry point when core/compiler, core/device and
  // core/runtime provide one.
  progress.Report(1.0, "not available");
  return absl::UnimplementedError(
      "Compiling and running needs the compiler, device and runtime layers, which this build "
      "does not have yet. The program is shown as it is; open a profile (.sysprof) to see a run.");
}

}  // namespace systolic::views
