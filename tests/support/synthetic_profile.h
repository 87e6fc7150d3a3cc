// Profiles built in code for the tests: every kind of record, several chips
// with per-unit lanes, stats of every kind, flows, metrics.
#pragma once

#include <cstdint>

#include "core/trace/profile.h"

namespace systolic::trace::testing {

struct SampleOptions {
  int chips = 4;
  int64_t events_per_lane = 200;
  bool with_event_stats = true;
  bool shuffled = false;  // append events out of order (Finalize sorts them)
};

// A profile as a compile-and-run of a sharded MLP on a 2x2 torus would
// produce it; deterministic.
Profile MakeSampleProfile(const SampleOptions& options = {});

}  // namespace systolic::trace::testing
