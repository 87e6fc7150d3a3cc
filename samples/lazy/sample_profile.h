// The profile of a lazy sample's training: the sample trains on the
// reference evaluator, then every program it compiled is compiled again for
// its slice and simulated step by step, with every compile request and its
// cause (what `systolic profile --sample` writes and the studio shows).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/run_profile.h"
#include "core/device/slice.h"
#include "core/trace/profile.h"
#include "samples/lazy/lazy_sample.h"

namespace systolic::samples {

// Trains `sample` for `steps` steps and profiles it on `slice` (null: one
// chip of `spec`). `producer` names the tool in the profile's header.
// Errors: a training error (prefixed with the sample's name), a program
// that does not compile for the chips, Cancelled from `progress`.
absl::StatusOr<trace::Profile> ProfileSample(const LazySample& sample, int64_t steps,
                                             const device::ChipSpec& spec,
                                             const device::Slice* slice,
                                             const std::string& producer,
                                             const device::RunProgressCallback& progress = {});

}  // namespace systolic::samples
