#include "core/analysis/program_of_event.h"

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "core/analysis/event_details.h"

namespace systolic::analysis {
namespace {

// A program id stat, read as the profiler wrote it (ids are 64-bit
// fingerprints: an unsigned value keeps its bits).
std::optional<int64_t> IdOf(const trace::TimelinePlane& plane, const trace::Stat& s) {
  switch (s.kind) {
    case trace::StatKind::kInt64: return s.int64_value;
    case trace::StatKind::kUint64: return int64_t(s.uint64_value);
    case trace::StatKind::kString: return trace::ParseProgramId(plane.string(s.string_ref));
    case trace::StatKind::kDouble: return std::nullopt;
  }
  return std::nullopt;
}

// The program a module name means: "jit_step(42)" by its id, "jit_step" by
// its name.
std::optional<int64_t> ProgramNamed(const trace::Profile& profile, absl::string_view name) {
  const trace::ModuleAndProgramId split = trace::SplitModuleAndProgramId(name);
  if (split.id && profile.FindProgram(*split.id)) return split.id;
  for (const trace::ProgramRecord& program : profile.programs) {
    if (program.name == split.module) return program.id;
  }
  return std::nullopt;
}

// The program named by an event's own stats.
std::optional<int64_t> ProgramFromStats(const trace::Profile& profile, const trace::TimelinePlane& plane,
                         const trace::TimelineLine& line, int64_t event) {
  if (const trace::Stat* s = FindEventStat(plane, line, event, "program_id")) {
    if (std::optional<int64_t> id = IdOf(plane, *s); id && profile.FindProgram(*id)) return *id;
  }
  if (const trace::Stat* s = FindEventStat(plane, line, event, "hlo_module")) {
    if (s->kind == trace::StatKind::kString) return ProgramNamed(profile, plane.string(s->string_ref));
  }
  return std::nullopt;
}

// The program of the plane's module event running at `time_ps`.
std::optional<int64_t> ProgramOfModuleAt(const trace::Profile& profile, const trace::TimelinePlane& plane,
                          int64_t time_ps) {
  for (const trace::TimelineLine& line : plane.lines()) {
    if (line.kind() != trace::LaneKind::kModules) continue;
    const trace::EventRange range = line.Window(time_ps, time_ps + 1);
    for (int64_t i = range.begin; i < range.end; ++i) {
      if (line.start_ps(i) > time_ps || line.end_ps(i) <= time_ps) continue;
      if (std::optional<int64_t> id = ProgramFromStats(profile, plane, line, i)) return id;
      if (std::optional<int64_t> id = ProgramNamed(profile, plane.event_metadata(line.metadata_id(i)).name)) {
        return id;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> ProgramOfEvent(const trace::Profile& profile, const trace::EventRef& ref) {
  if (profile.programs.empty() || !profile.timeline.Contains(ref)) return std::nullopt;
  const trace::TimelinePlane& plane = profile.timeline.plane(ref.plane);
  const trace::TimelineLine& line = plane.line(ref.line);
  if (std::optional<int64_t> id = ProgramFromStats(profile, plane, line, ref.event)) return id;
  if (line.kind() == trace::LaneKind::kModules) {
    const std::string& name = plane.event_metadata(line.metadata_id(ref.event)).name;
    if (std::optional<int64_t> id = ProgramNamed(profile, name)) return id;
  }
  if (std::optional<int64_t> id = ProgramOfModuleAt(profile, plane, line.start_ps(ref.event))) return id;
  if (profile.programs.size() == 1) return profile.programs.front().id;
  return std::nullopt;
}

}  // namespace systolic::analysis
