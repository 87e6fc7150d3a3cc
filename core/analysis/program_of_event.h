// Which program an event of a real profile ran in, so a click on an op of a
// multi-program profile opens that program's graph. Profilers say it in
// different ways; tried in order: a `program_id` stat on the event or its
// name, an `hlo_module` stat ("jit_step" or "jit_step(42)"), the
// "XLA Modules" event of the same chip that encloses it ("jit_step(42)"),
// and the only program when there is one.
#pragma once

#include <cstdint>
#include <optional>

#include "core/trace/profile.h"

namespace systolic::analysis {

// The id of the event's program in `profile` (ids are fingerprints and may
// be negative), or nullopt when none is known.
std::optional<int64_t> ProgramOfEvent(const trace::Profile& profile, const trace::EventRef& ref);

}  // namespace systolic::analysis
