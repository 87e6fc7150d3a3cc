// Timeline pieces to and from their protobuf form: stats, and a lane's
// events as columns (zigzag start deltas, durations, name ids, stat set ids,
// details) — compact on disk, and quick to decode.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "core/trace/profile.pb.h"
#include "core/trace/timeline_plane.h"

namespace systolic::trace {

void EncodeStat(const Stat& stat, proto::Stat* out);
// Checks the name and string references against `plane`'s tables.
absl::Status DecodeStat(const proto::Stat& in, const TimelinePlane& plane, Stat* out);

// Events [begin, end) of `line` into `out`'s columns, with the stat sets
// they refer to that are not written yet; `*sets_written` counts the sets
// written so far (the empty set 0 is never written).
void EncodeLineEvents(const TimelineLine& line, int64_t begin, int64_t end,
                      int64_t* sets_written, proto::Line* out);
// Appends the events of `in` to `line`, checking every reference.
absl::Status DecodeLineEvents(const proto::Line& in, const TimelinePlane& plane,
                              TimelineLine* line);

}  // namespace systolic::trace
