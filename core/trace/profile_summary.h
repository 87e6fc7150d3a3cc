// The figures a profile's summary shows (`systolic info`, the studio's
// profile panel): what it holds and how much.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/profile.h"

namespace systolic::trace {

struct ProfileSummary {
  int64_t programs = 0;
  int64_t stages = 0;          // module snapshots over all programs
  int64_t compiles = 0;
  int64_t cache_hits = 0;
  int64_t cache_misses = 0;
  int64_t compile_time_ns = 0;
  int64_t runs = 0;
  int64_t steps = 0;
  int64_t chips = 0;           // device planes
  int64_t planes = 0;
  int64_t events = 0;
  int64_t flows = 0;
  TimeSpan span;
  std::vector<LaneSummary> lanes;
};

ProfileSummary SummarizeProfile(const Profile& profile);

// "3.000 us", "12.5 ms", "850 ps": a duration with a unit that suits it.
std::string FormatDurationPs(int64_t ps);

}  // namespace systolic::trace
