#include "samples/lazy/sample_profile.h"

#include "absl/strings/str_cat.h"
#include "core/device/steps_profile.h"

namespace systolic::samples {
namespace {

// The front end's compile requests as the profile records them (the compile
// time of a miss is the device compiler's, which CompileAndProfileSteps
// measures; the front end's is its evaluator's).
std::vector<trace::CompileEvent> CompileRequestsOf(const TrainingLog& log) {
  std::vector<trace::CompileEvent> requests;
  for (const trace::CompileEvent& e : log.compile_events) {
    trace::CompileEvent request;
    request.step = e.step;
    request.program_id = e.program_id;
    request.fingerprint = e.fingerprint;
    request.cache_hit = e.cache_hit;
    request.cause = e.cause;
    request.source = e.source;
    request.graph_size = e.graph_size;
    request.compared_program_id = e.compared_program_id;
    requests.push_back(std::move(request));
  }
  return requests;
}

}  // namespace

absl::StatusOr<trace::Profile> ProfileSample(const LazySample& sample, int64_t steps,
                                             const device::ChipSpec& spec,
                                             const device::Slice* slice,
                                             const std::string& producer,
                                             const device::RunProgressCallback& progress) {
  SampleRunOptions options;
  options.steps = steps;
  absl::StatusOr<TrainingLog> log = sample.run(options);
  if (!log.ok()) {
    return absl::Status(log.status().code(),
                        absl::StrCat(sample.name, ": ", log.status().message()));
  }
  device::StepsToProfile to_profile{
      {producer, absl::StrCat(sample.name, " training on ", slice ? slice->Name() : spec.name())},
      log->programs,
      CompileRequestsOf(*log)};
  return device::CompileAndProfileSteps(to_profile, spec, slice, progress);
}

}  // namespace systolic::samples
