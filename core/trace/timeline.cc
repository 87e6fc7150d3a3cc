#include "core/trace/timeline.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace systolic::trace {
namespace {

// Stats whose string value names the HLO op or module an event ran (the
// names XLA's profilers use), searched along with event names.
bool IsSearchableStat(absl::string_view name) {
  return name == "hlo_op" || name == "hlo_module" || name == "long_name" || name == "tf_op" ||
         name == "name";
}

}  // namespace

TimelinePlane& Timeline::AddPlane(std::string name, PlaneKind kind, int32_t chip_id) {
  return planes_.emplace_back(int32_t(planes_.size()), std::move(name), kind, chip_id);
}

const TimelinePlane* Timeline::FindChipPlane(int32_t chip_id) const {
  for (const TimelinePlane& plane : planes_) {
    const bool host = plane.kind() == PlaneKind::kHost;
    if ((chip_id < 0 && host) || (!host && plane.chip_id() == chip_id)) return &plane;
  }
  return nullptr;
}

const std::string& Timeline::EventName(const EventRef& ref) const {
  const TimelinePlane& p = planes_[ref.plane];
  const EventMetadata& m = p.event_metadata(p.line(ref.line).metadata_id(ref.event));
  return m.display_name.empty() ? m.name : m.display_name;
}

bool Timeline::Contains(const EventRef& ref) const {
  return ref.plane >= 0 && ref.plane < plane_count() && ref.line >= 0 &&
         ref.line < planes_[ref.plane].line_count() && ref.event >= 0 &&
         ref.event < planes_[ref.plane].line(ref.line).size();
}

void Timeline::Finalize() {
  // The new index of every moved event, per lane; flows are remapped once.
  absl::flat_hash_map<std::pair<int32_t, int32_t>, std::vector<int64_t>> moved;
  for (TimelinePlane& plane : planes_) {
    for (int32_t l = 0; l < plane.line_count(); ++l) {
      std::vector<int64_t> new_index = plane.mutable_line(l).Sort();
      if (!new_index.empty()) moved[{plane.id(), l}] = std::move(new_index);
    }
  }
  if (moved.empty()) return;
  for (Flow& flow : flows_) {
    for (EventRef* end : {&flow.source, &flow.target}) {
      auto it = moved.find(std::make_pair(end->plane, end->line));
      if (it != moved.end() && end->event >= 0 && end->event < int64_t(it->second.size())) {
        end->event = it->second[end->event];
      }
    }
  }
}

int64_t Timeline::event_count() const {
  int64_t n = 0;
  for (const TimelinePlane& plane : planes_) n += plane.event_count();
  return n;
}

TimeSpan Timeline::Span() const {
  TimeSpan span{INT64_MAX, INT64_MIN};
  for (const TimelinePlane& plane : planes_) {
    for (const TimelineLine& line : plane.lines()) {
      if (line.empty()) continue;
      span.start_ps = std::min(span.start_ps, line.min_start_ps());
      span.end_ps = std::max(span.end_ps, line.max_end_ps());
    }
  }
  if (span.start_ps > span.end_ps) return {};
  return span;
}

std::vector<EventRef> Timeline::Search(absl::string_view needle, int64_t limit) const {
  std::vector<EventRef> found;
  const std::string lowered = absl::AsciiStrToLower(needle);
  auto matches = [&](absl::string_view text) {
    return absl::StrContains(absl::AsciiStrToLower(text), lowered);
  };
  for (const TimelinePlane& plane : planes_) {
    // Names and string values are matched once per plane; events are then
    // matched by id.
    std::vector<bool> name_hit(plane.event_metadata_count());
    for (int32_t id = 0; id < plane.event_metadata_count(); ++id) {
      const EventMetadata& m = plane.event_metadata(id);
      bool hit = matches(m.name) || (!m.display_name.empty() && matches(m.display_name));
      for (const Stat& s : m.stats) {
        if (hit) break;
        hit = s.kind == StatKind::kString && IsSearchableStat(plane.stat_name(s.name_id)) &&
              matches(plane.string(s.string_ref));
      }
      name_hit[id] = hit;
    }
    std::vector<bool> string_hit(plane.string_count());
    for (uint32_t ref = 0; ref < plane.string_count(); ++ref) string_hit[ref] = matches(plane.string(ref));
    std::vector<bool> searchable_stat(plane.stat_name_count());
    for (int32_t id = 0; id < plane.stat_name_count(); ++id) {
      searchable_stat[id] = IsSearchableStat(plane.stat_name(id));
    }

    for (const TimelineLine& line : plane.lines()) {
      for (int64_t i = 0; i < line.size(); ++i) {
        bool hit = name_hit[line.metadata_id(i)] ||
                   (line.detail(i) != kNoDetail && string_hit[line.detail(i)]);
        if (!hit && line.has_event_stats()) {
          for (const Stat& s : line.stats(i)) {
            if (s.kind == StatKind::kString && searchable_stat[s.name_id] &&
                string_hit[s.string_ref]) {
              hit = true;
              break;
            }
          }
        }
        if (!hit) continue;
        found.push_back({plane.id(), line.id(), i});
        if (int64_t(found.size()) >= limit) return found;
      }
    }
  }
  return found;
}

std::vector<LaneSummary> Timeline::Lanes() const {
  std::vector<LaneSummary> lanes;
  for (const TimelinePlane& plane : planes_) {
    for (const TimelineLine& line : plane.lines()) {
      lanes.push_back({plane.id(), line.id(), plane.name(), line.name(), line.kind(), line.size(),
                       line.BusyPs()});
    }
  }
  return lanes;
}

int64_t Timeline::MemoryBytes() const {
  int64_t bytes = 0;
  for (const TimelinePlane& plane : planes_) bytes += plane.MemoryBytes();
  return bytes + int64_t(flows_.capacity() * sizeof(Flow));
}

}  // namespace systolic::trace
