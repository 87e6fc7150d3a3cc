// Merges chunk messages, in file order, into a profile (the reverse of
// ProfileChunkEncoder), checking every reference so a damaged file is an
// error rather than a profile that crashes a view.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "core/trace/profile.h"
#include "core/trace/profile.pb.h"

namespace systolic::trace {

class ProfileChunkDecoder {
 public:
  explicit ProfileChunkDecoder(Profile* out) : out_(out) {}

  // Errors say what is wrong; the caller says where (file, chunk).
  absl::Status Merge(const proto::Profile& chunk);
  // Checks the flows and orders the timeline. With `drop_broken_flows`
  // (recovering an unfinished file) flows whose events were not flushed are
  // dropped and counted instead of failing.
  absl::Status Finish(bool drop_broken_flows, int64_t* dropped_flows = nullptr);

 private:
  absl::Status MergePlane(const proto::Plane& in);
  Profile* out_;
};

}  // namespace systolic::trace
