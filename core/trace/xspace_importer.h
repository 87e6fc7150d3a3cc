// Import of XSpace files (`*.xplane.pb`) written by real profilers — JAX,
// TensorFlow, PyTorch/XLA: device planes ("/device:TPU:0",
// "/device:GPU:1") become chips, host planes ("/host:CPU") the host
// timeline, their lines lanes and their events events, with every stat.
// HLO op and module names (event names on "XLA Ops" lines, hlo_op /
// hlo_module stats on GPU kernels) stay searchable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/trace/profile.h"

namespace systolic::trace {

namespace xspace {
class XSpace;
}

struct XSpaceImportReport {
  int64_t device_planes = 0;
  int64_t host_planes = 0;
  int64_t events = 0;
  std::vector<std::string> skipped_planes;  // e.g. "/host:metadata"
  int64_t aggregated_events_skipped = 0;    // events with a count instead of a time
  std::vector<std::string> warnings;        // also kept in the profile's notes
};

// The XSpace of `bytes`, or of the file `path` (named in its errors).
absl::Status ParseXSpace(absl::string_view bytes, xspace::XSpace* space);
absl::Status ReadXSpaceFile(const std::string& path, xspace::XSpace* space);

absl::StatusOr<Profile> ImportXSpace(const xspace::XSpace& space,
                                     XSpaceImportReport* report = nullptr);
// From the serialised bytes of an XSpace.
absl::StatusOr<Profile> ImportXSpace(absl::string_view bytes,
                                     XSpaceImportReport* report = nullptr);
absl::StatusOr<Profile> ImportXSpaceFile(const std::string& path,
                                         XSpaceImportReport* report = nullptr);

}  // namespace systolic::trace
