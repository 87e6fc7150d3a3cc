// Places the timeline of one program run at a later time in a profile's
// timeline: a program's run is simulated once, and every step that runs it
// again repeats its events from the step's start.
#pragma once

#include <cstdint>

#include "core/trace/timeline.h"

namespace systolic::trace {

// Appends every event of `run` to `into`, `offset_ps` later, and every flow
// between them (with new ids). A plane goes to the plane of the same chip id
// (added with the name, kind and stats of `run`'s when absent), a lane to
// the lane of the same name (likewise). An event name already in the target
// plane keeps the stats it has there.
void AppendShiftedTimeline(const Timeline& run, int64_t offset_ps, Timeline& into);

}  // namespace systolic::trace
