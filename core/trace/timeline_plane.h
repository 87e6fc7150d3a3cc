// One chip's (or the host's) timeline: its lanes, and the tables the events
// refer to — event names with the stats every event of that name shares,
// stat names and string values — each stored once (the XPlane way).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "core/trace/stat.h"
#include "core/trace/timeline_line.h"

namespace systolic::trace {

enum class PlaneKind : uint8_t { kDevice, kHost };

struct EventMetadata {
  std::string name;          // e.g. the HLO op "fusion.3"
  std::string display_name;  // optional, shown instead of the name
  std::vector<Stat> stats;   // shared by every event of this name
  friend bool operator==(const EventMetadata&, const EventMetadata&) = default;
};

class TimelinePlane {
 public:
  TimelinePlane(int32_t id, std::string name, PlaneKind kind, int32_t chip_id);

  int32_t id() const { return id_; }  // its index in the timeline
  const std::string& name() const { return name_; }
  PlaneKind kind() const { return kind_; }
  int32_t chip_id() const { return chip_id_; }  // -1 for the host

  // --- Event names ------------------------------------------------------------
  // The id of `name`, added when new.
  int32_t InternEventName(absl::string_view name);
  // Always adds an entry (importers whose names repeat with other stats).
  int32_t AddEventMetadata(EventMetadata metadata);
  int32_t event_metadata_count() const { return int32_t(event_metadata_.size()); }
  const EventMetadata& event_metadata(int32_t id) const { return event_metadata_[id]; }
  EventMetadata& mutable_event_metadata(int32_t id) { return event_metadata_[id]; }
  // The id of the first entry with this name, or -1.
  int32_t FindEventName(absl::string_view name) const;

  // --- Stat names and string values --------------------------------------------
  int32_t InternStatName(absl::string_view name);
  int32_t stat_name_count() const { return int32_t(stat_names_.size()); }
  const std::string& stat_name(int32_t id) const { return stat_names_[id]; }
  int32_t FindStatName(absl::string_view name) const;
  uint32_t InternString(absl::string_view value);
  // Always adds a string (readers keep the writer's refs; no lookup).
  uint32_t AddString(std::string value);
  uint32_t string_count() const { return uint32_t(strings_.size()); }
  const std::string& string(uint32_t ref) const { return strings_[ref]; }

  // Stats built from names and values, interning both.
  Stat MakeIntStat(absl::string_view name, int64_t value);
  Stat MakeUintStat(absl::string_view name, uint64_t value);
  Stat MakeDoubleStat(absl::string_view name, double value);
  Stat MakeStringStat(absl::string_view name, absl::string_view value);
  // "1234", "0.5", or the string itself.
  std::string FormatStatValue(const Stat& stat) const;
  // The string of a string stat; nullptr for a number.
  const std::string* StringValue(const Stat& stat) const;

  // Stats about the plane itself (e.g. the chip's clock).
  const std::vector<Stat>& stats() const { return stats_; }
  std::vector<Stat>& mutable_stats() { return stats_; }

  // --- Lanes ------------------------------------------------------------------
  // References stay valid as lanes are added.
  TimelineLine& AddLine(std::string name, LaneKind kind, int32_t core = -1, int32_t unit = -1);
  // The lane named `name`, added with these attributes when absent.
  TimelineLine& GetOrAddLine(absl::string_view name, LaneKind kind, int32_t core = -1,
                             int32_t unit = -1);
  int32_t line_count() const { return int32_t(lines_.size()); }
  const TimelineLine& line(int32_t i) const { return lines_[i]; }
  TimelineLine& mutable_line(int32_t i) { return lines_[i]; }
  const std::deque<TimelineLine>& lines() const { return lines_; }

  // Appends an event to lane `line`, naming it (producers' shortcut); a
  // non-empty `detail` is the event's own (TimelineLine::detail).
  int64_t AddEvent(int32_t line, absl::string_view name, int64_t start_ps, int64_t duration_ps,
                   absl::Span<const Stat> stats = {}, absl::string_view detail = {});
  // The detail of event `event` of `line` (a lane of this plane), or nullptr.
  const std::string* DetailOf(const TimelineLine& line, int64_t event) const;

  int64_t event_count() const;
  int64_t MemoryBytes() const;

  friend bool operator==(const TimelinePlane& a, const TimelinePlane& b);

 private:
  int32_t id_;
  std::string name_;
  PlaneKind kind_;
  int32_t chip_id_;
  std::vector<EventMetadata> event_metadata_;
  absl::flat_hash_map<std::string, int32_t> event_ids_;
  std::vector<std::string> stat_names_;
  absl::flat_hash_map<std::string, int32_t> stat_ids_;
  // A deque, so the index's keys stay put as strings are added.
  std::deque<std::string> strings_;
  // Looks strings up by value for InternString; built when first needed
  // (readers add hundreds of thousands of strings that are never looked
  // up), and empty in a copy, whose keys would point into this plane.
  struct StringIndex {
    absl::flat_hash_map<absl::string_view, uint32_t> ids;
    uint32_t indexed = 0;  // strings_[0, indexed) are in `ids`
    StringIndex() = default;
    StringIndex(const StringIndex&) {}
    StringIndex& operator=(const StringIndex&) {
      ids.clear();
      indexed = 0;
      return *this;
    }
    StringIndex(StringIndex&&) = default;
    StringIndex& operator=(StringIndex&&) = default;
  };
  StringIndex string_index_;
  std::vector<Stat> stats_;
  std::deque<TimelineLine> lines_;
};

}  // namespace systolic::trace
