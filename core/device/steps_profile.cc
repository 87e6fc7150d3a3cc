#include "core/device/steps_profile.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "core/device/program_timing.h"
#include "core/device/slice_timing.h"
#include "core/device/device_plan.h"
#include "core/hlo/hlo_parser.h"

namespace systolic::device {
namespace {

absl::StatusOr<std::vector<std::unique_ptr<HloModule>>> ParsePrograms(
    absl::Span<const std::string> texts) {
  std::vector<std::unique_ptr<HloModule>> modules;
  for (size_t id = 0; id < texts.size(); ++id) {
    HloParseOptions options;
    options.filename = absl::StrCat("program ", id);
    auto module = ParseAndReturnVerifiedModule(texts[id], options);
    if (!module.ok()) return module.status();
    modules.push_back(*std::move(module));
  }
  return modules;
}

// Every program runs on one slice: the one the most devices need.
absl::StatusOr<int64_t> MostDevicesNeeded(const std::vector<std::unique_ptr<HloModule>>& modules) {
  int64_t devices = 1;
  for (const auto& module : modules) {
    absl::StatusOr<SpmdDeviceCounts> counts = DeviceCountsFor(*module);
    if (!counts.ok()) return counts.status();
    devices = std::max(devices, counts->replicas * counts->partitions);
  }
  return devices;
}

// The fingerprint of the compile that made each program (its first miss).
std::string FingerprintOf(int64_t program_id, absl::Span<const trace::CompileEvent> requests) {
  for (const trace::CompileEvent& e : requests) {
    if (e.program_id == program_id && !e.cache_hit) return e.fingerprint;
  }
  return "";
}

}  // namespace

absl::StatusOr<trace::Profile> CompileAndProfileSteps(const StepsToProfile& steps,
                                                      const ChipSpec& spec, const Slice* slice,
                                                      const RunProgressCallback& progress) {
  auto report = [&](double fraction, absl::string_view what) {
    return !progress || progress(fraction, what);
  };
  auto modules = ParsePrograms(steps.programs);
  if (!modules.ok()) return modules.status();
  std::optional<Slice> fitted;
  if (slice == nullptr) {
    absl::StatusOr<int64_t> devices = MostDevicesNeeded(*modules);
    if (!devices.ok()) return devices.status();
    if (*devices > 1) {
      auto made = SliceForDevices(spec, *devices);
      if (!made.ok()) return made.status();
      fitted = *std::move(made);
      slice = &*fitted;
    }
  }

  // Deques: the timed programs point into them.
  std::deque<TimedCompilation> on_chip;
  std::deque<TimedSliceCompilation> on_slice;
  std::vector<TimedProgram> timed;
  const int64_t count = int64_t(modules->size());
  for (int64_t id = 0; id < count; ++id) {
    const std::string what = absl::StrCat("compiling program ", id + 1, " of ", count);
    if (!report(0.9 * double(id) / double(count), what)) {
      return absl::CancelledError(absl::StrCat("cancelled before ", what));
    }
    std::unique_ptr<HloModule>& module = (*modules)[size_t(id)];
    TimedProgram program{id, FingerprintOf(id, steps.requests)};
    if (slice != nullptr) {
      auto result = CompileAndTimeOnSlice(std::move(module), *slice);
      if (!result.ok()) return result.status();
      const TimedSliceCompilation& done = on_slice.emplace_back(*std::move(result));
      program.compilation = &done.compilation;
      program.chip = &done.timing.chip;
      program.slice_timing = &done.timing;
    } else {
      auto result = CompileAndTime(std::move(module), spec);
      if (!result.ok()) return result.status();
      const TimedCompilation& done = on_chip.emplace_back(*std::move(result));
      program.compilation = &done.compilation;
      program.chip = &done.timing;
    }
    timed.push_back(std::move(program));
  }

  if (!report(0.9, "placing the steps on the timeline")) {
    return absl::CancelledError("cancelled after compiling");
  }
  std::vector<ProgramExecution> executions;
  std::vector<trace::CompileEvent> requests = steps.requests;
  for (trace::CompileEvent& e : requests) {
    executions.push_back({e.step, e.program_id});
    if (!e.cache_hit && e.program_id >= 0 && e.program_id < count) {
      e.compile_time_ns = timed[size_t(e.program_id)].compilation->compile_time_ns;
    }
  }
  trace::Profile profile = ProfileOfPrograms(steps.header, slice ? slice->spec : spec, slice,
                                             timed, std::move(requests), executions);
  report(1.0, "done");
  return profile;
}

}  // namespace systolic::device
