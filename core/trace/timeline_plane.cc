#include "core/trace/timeline_plane.h"

#include "absl/strings/str_cat.h"

namespace systolic::trace {

TimelinePlane::TimelinePlane(int32_t id, std::string name, PlaneKind kind, int32_t chip_id)
    : id_(id), name_(std::move(name)), kind_(kind), chip_id_(chip_id) {}

int32_t TimelinePlane::InternEventName(absl::string_view name) {
  auto it = event_ids_.find(name);
  if (it != event_ids_.end()) return it->second;
  return AddEventMetadata(EventMetadata{std::string(name), "", {}});
}

int32_t TimelinePlane::AddEventMetadata(EventMetadata metadata) {
  const int32_t id = int32_t(event_metadata_.size());
  event_ids_.try_emplace(metadata.name, id);
  event_metadata_.push_back(std::move(metadata));
  return id;
}

int32_t TimelinePlane::FindEventName(absl::string_view name) const {
  auto it = event_ids_.find(name);
  return it == event_ids_.end() ? -1 : it->second;
}

int32_t TimelinePlane::InternStatName(absl::string_view name) {
  auto [it, added] = stat_ids_.try_emplace(name, int32_t(stat_names_.size()));
  if (added) stat_names_.emplace_back(name);
  return it->second;
}

int32_t TimelinePlane::FindStatName(absl::string_view name) const {
  auto it = stat_ids_.find(name);
  return it == stat_ids_.end() ? -1 : it->second;
}

uint32_t TimelinePlane::InternString(absl::string_view value) {
  // The first of equal strings a reader added is the one found.
  for (; string_index_.indexed < strings_.size(); ++string_index_.indexed) {
    string_index_.ids.try_emplace(strings_[string_index_.indexed], string_index_.indexed);
  }
  auto it = string_index_.ids.find(value);
  if (it != string_index_.ids.end()) return it->second;
  const uint32_t ref = AddString(std::string(value));
  string_index_.ids.emplace(strings_.back(), ref);
  string_index_.indexed = uint32_t(strings_.size());
  return ref;
}

uint32_t TimelinePlane::AddString(std::string value) {
  strings_.push_back(std::move(value));
  return uint32_t(strings_.size() - 1);
}

Stat TimelinePlane::MakeIntStat(absl::string_view name, int64_t value) {
  return Stat::Int64(InternStatName(name), value);
}
Stat TimelinePlane::MakeUintStat(absl::string_view name, uint64_t value) {
  return Stat::Uint64(InternStatName(name), value);
}
Stat TimelinePlane::MakeDoubleStat(absl::string_view name, double value) {
  return Stat::Double(InternStatName(name), value);
}
Stat TimelinePlane::MakeStringStat(absl::string_view name, absl::string_view value) {
  const int32_t name_id = InternStatName(name);
  return Stat::StringRef(name_id, InternString(value));
}

std::string TimelinePlane::FormatStatValue(const Stat& stat) const {
  switch (stat.kind) {
    case StatKind::kInt64: return absl::StrCat(stat.int64_value);
    case StatKind::kUint64: return absl::StrCat(stat.uint64_value);
    case StatKind::kDouble: return absl::StrCat(stat.double_value);
    case StatKind::kString: return strings_[stat.string_ref];
  }
  return "";
}

const std::string* TimelinePlane::StringValue(const Stat& stat) const {
  return stat.kind == StatKind::kString ? &strings_[stat.string_ref] : nullptr;
}

TimelineLine& TimelinePlane::AddLine(std::string name, LaneKind kind, int32_t core, int32_t unit) {
  return lines_.emplace_back(int32_t(lines_.size()), std::move(name), kind, core, unit);
}

TimelineLine& TimelinePlane::GetOrAddLine(absl::string_view name, LaneKind kind, int32_t core,
                                          int32_t unit) {
  for (TimelineLine& line : lines_) {
    if (line.name() == name) return line;
  }
  return AddLine(std::string(name), kind, core, unit);
}

int64_t TimelinePlane::AddEvent(int32_t line, absl::string_view name, int64_t start_ps,
                                int64_t duration_ps, absl::Span<const Stat> stats,
                                absl::string_view detail) {
  const uint32_t detail_ref = detail.empty() ? kNoDetail : InternString(detail);
  return lines_[line].Append(start_ps, duration_ps, InternEventName(name), stats, detail_ref);
}

const std::string* TimelinePlane::DetailOf(const TimelineLine& line, int64_t event) const {
  const uint32_t ref = line.detail(event);
  return ref == kNoDetail ? nullptr : &strings_[ref];
}

int64_t TimelinePlane::event_count() const {
  int64_t n = 0;
  for (const TimelineLine& line : lines_) n += line.size();
  return n;
}

int64_t TimelinePlane::MemoryBytes() const {
  int64_t bytes = 0;
  for (const TimelineLine& line : lines_) bytes += line.MemoryBytes();
  for (const EventMetadata& m : event_metadata_) {
    bytes += int64_t(sizeof(EventMetadata) + m.name.capacity() + m.display_name.capacity() +
                     m.stats.capacity() * sizeof(Stat));
  }
  for (const std::string& s : strings_) bytes += int64_t(sizeof(std::string) + s.capacity());
  bytes += int64_t(string_index_.ids.capacity() * (sizeof(absl::string_view) + sizeof(uint32_t) + 1));
  return bytes;
}

bool operator==(const TimelinePlane& a, const TimelinePlane& b) {
  return a.id_ == b.id_ && a.name_ == b.name_ && a.kind_ == b.kind_ && a.chip_id_ == b.chip_id_ &&
         a.event_metadata_ == b.event_metadata_ && a.stat_names_ == b.stat_names_ &&
         a.strings_ == b.strings_ && a.stats_ == b.stats_ && a.lines_ == b.lines_;
}

}  // namespace systolic::trace
