// Turns what a profile gained since the last call into chunk messages, so a
// long run can be written while it is still producing events. Everything is
// append-only except the singletons (info, chip, topology), runs and
// metrics, which are written whole each time (readers keep the latest).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "core/trace/profile.h"
#include "core/trace/profile.pb.h"

namespace systolic::trace {

class ProfileChunkEncoder {
 public:
  // A chunk and the number of events it holds.
  using Emit = std::function<absl::Status(const proto::Profile& chunk, int64_t events)>;

  explicit ProfileChunkEncoder(int64_t max_events_per_chunk);

  // Emits one or more chunks holding everything new in `profile` since the
  // previous call; the first carries the records and new names, the others
  // at most `max_events_per_chunk` events each. Programs, compile events,
  // names, events and flows must not change once encoded.
  absl::Status EncodeNew(const Profile& profile, const Emit& emit);

 private:
  // How much of each list has been encoded.
  struct LineMark {
    int64_t events = 0;
    int64_t stat_sets = 1;  // set 0, the empty set, is implied
  };
  struct PlaneMark {
    int32_t event_metadata = 0;
    int32_t stat_names = 0;
    uint32_t strings = 0;
    std::vector<LineMark> lines;
  };

  int64_t max_events_per_chunk_;
  size_t programs_ = 0;
  size_t compile_events_ = 0;
  size_t flows_ = 0;
  std::vector<PlaneMark> planes_;
};

}  // namespace systolic::trace
