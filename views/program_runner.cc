#include "views/program_runner.h"

#include <new>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/chip_spec_validator.h"
#include "core/device/program_run.h"
#include "core/device/slice.h"

namespace systolic::views {

absl::StatusOr<trace::Profile> CompileAndRunProgram(const HloModule& module,
                                                    const ProgramRunRequest& request,
                                                    RunProgress& progress) {
  progress.Report(0.0, "loading the chip");
  auto spec = device::LoadChipSpec(request.chip());
  if (!spec.ok()) return spec.status();
  if (request.mxu_size > 0) {
    // What-if: the same chip with a larger or smaller systolic array.
    spec->mutable_mxu()->set_rows(request.mxu_size);
    spec->mutable_mxu()->set_cols(request.mxu_size);
    if (absl::Status valid = device::ValidateChipSpec(*spec); !valid.ok()) return valid;
  }
  auto report = [&progress](double fraction, absl::string_view what) {
    progress.Report(fraction, std::string(what));
    return !progress.cancelled();
  };
  // The profile says the studio wrote it (the CLI's say which command did).
  const std::string producer = "systolic studio";
  device::DeviceRequest devices;
  if (!request.topology.empty()) {
    auto slice = device::LoadSlice(request.topology, request.chip());
    if (!slice.ok()) return slice.status();
    if (request.mxu_size > 0) slice->spec = *spec;
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

absl::StatusOr<ProgramRunRequest> ParseRunRequest(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, ':');
  if (parts.empty() || parts.size() > 3 || parts[0].empty()) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is no run: write CHIP, CHIP:TOPOLOGY or CHIP:TOPOLOGY:STEPS"));
  }
  ProgramRunRequest request;
  // A path or a file name is a spec file; a bare word is a preset.
  if (parts[0].find_first_of("/.") != std::string::npos) {
    request.chip_spec_path = parts[0];
  } else {
    request.chip_preset = parts[0];
  }
  if (parts.size() > 1) request.topology = parts[1];
  if (parts.size() > 2 && (!absl::SimpleAtoi(parts[2], &request.steps) || request.steps < 1)) {
    return absl::InvalidArgumentError(absl::StrCat("'", parts[2], "' in '", text, "' is no number of steps"));
  }
  if (auto spec = device::LoadChipSpec(parts[0]); !spec.ok()) return spec.status();
  return request;
}

std::string DescribeRequest(const ProgramRunRequest& request) {
  // A spec file by its name, without its folder.
  const size_t slash = request.chip().find_last_of('/');
  std::string text = slash == std::string::npos ? request.chip() : request.chip().substr(slash + 1);
  if (!request.topology.empty()) absl::StrAppend(&text, " · ", request.topology);
  if (request.mxu_size > 0) absl::StrAppend(&text, " · MXU ", request.mxu_size, "²");
  absl::StrAppend(&text, " · ", request.steps, request.steps == 1 ? " step" : " steps");
  return text;
}

}  // namespace systolic::views
