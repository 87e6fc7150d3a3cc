#include "core/trace/profile_summary.h"

#include <cstdlib>

#include "absl/strings/str_format.h"

namespace systolic::trace {

ProfileSummary SummarizeProfile(const Profile& profile) {
  ProfileSummary s;
  s.programs = int64_t(profile.programs.size());
  for (const ProgramRecord& p : profile.programs) s.stages += int64_t(p.snapshots.size());
  s.compiles = int64_t(profile.compile_events.size());
  for (const CompileEvent& c : profile.compile_events) {
    (c.cache_hit ? s.cache_hits : s.cache_misses) += 1;
    s.compile_time_ns += c.compile_time_ns;
  }
  s.runs = int64_t(profile.runs.size());
  for (const RunRecord& r : profile.runs) s.steps += int64_t(r.steps.size());
  const Timeline& t = profile.timeline;
  s.planes = t.plane_count();
  for (const TimelinePlane& plane : t.planes()) s.chips += plane.kind() == PlaneKind::kDevice;
  s.events = t.event_count();
  s.flows = int64_t(t.flows().size());
  s.span = t.Span();
  s.lanes = t.Lanes();
  return s;
}

std::string FormatDurationPs(int64_t ps) {
  const double magnitude = double(std::llabs(ps));
  if (magnitude >= 1e12) return absl::StrFormat("%.3f s", double(ps) / 1e12);
  if (magnitude >= 1e9) return absl::StrFormat("%.3f ms", double(ps) / 1e9);
  if (magnitude >= 1e6) return absl::StrFormat("%.3f us", double(ps) / 1e6);
  if (magnitude >= 1e3) return absl::StrFormat("%.3f ns", double(ps) / 1e3);
  return absl::StrFormat("%d ps", ps);
}

}  // namespace systolic::trace
