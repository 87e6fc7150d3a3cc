// Every chip's and the host's timelines (planes of lanes of events), the
// flows between events, and the queries views run across all of them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/trace/timeline_plane.h"

namespace systolic::trace {

// One event: plane index, lane index in the plane, event index in the lane.
struct EventRef {
  int32_t plane = 0;
  int32_t line = 0;
  int64_t event = 0;
  friend bool operator==(const EventRef&, const EventRef&) = default;
};

// A transfer from one event to another: a collective's send on one chip and
// its receive on another, an ICI hop, a host-to-device copy.
struct Flow {
  uint64_t id = 0;
  std::string name;
  std::string category;  // "collective", "ici", "h2d"
  EventRef source;
  EventRef target;
  int64_t bytes = 0;
  friend bool operator==(const Flow&, const Flow&) = default;
};

struct TimeSpan {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  int64_t duration_ps() const { return end_ps - start_ps; }
  friend bool operator==(const TimeSpan&, const TimeSpan&) = default;
};

// Events and busy time of one lane, for summaries.
struct LaneSummary {
  int32_t plane = 0;
  int32_t line = 0;
  std::string plane_name;
  std::string line_name;
  LaneKind kind = LaneKind::kOther;
  int64_t event_count = 0;
  int64_t busy_ps = 0;
};

class Timeline {
 public:
  // Event offsets are picoseconds after this instant.
  int64_t origin_unix_ns() const { return origin_unix_ns_; }
  void set_origin_unix_ns(int64_t ns) { origin_unix_ns_ = ns; }

  // --- Planes -----------------------------------------------------------------
  // References stay valid as planes are added.
  TimelinePlane& AddPlane(std::string name, PlaneKind kind, int32_t chip_id);
  int32_t plane_count() const { return int32_t(planes_.size()); }
  const TimelinePlane& plane(int32_t i) const { return planes_[i]; }
  TimelinePlane& mutable_plane(int32_t i) { return planes_[i]; }
  const std::deque<TimelinePlane>& planes() const { return planes_; }
  // The plane of chip `chip_id`, or the host plane for -1; nullptr if none.
  const TimelinePlane* FindChipPlane(int32_t chip_id) const;

  const TimelineLine& line(const EventRef& ref) const {
    return planes_[ref.plane].line(ref.line);
  }
  // The event's name as shown (display name when set).
  const std::string& EventName(const EventRef& ref) const;
  bool Contains(const EventRef& ref) const;

  // --- Flows ------------------------------------------------------------------
  void AddFlow(Flow flow) { flows_.push_back(std::move(flow)); }
  const std::vector<Flow>& flows() const { return flows_; }
  std::vector<Flow>& mutable_flows() { return flows_; }

  // Orders every lane's events by time (parents before children), keeping
  // flows pointing at the same events. Producers call it when done; loaded
  // profiles are finalized. Cheap when already in order.
  void Finalize();

  // --- Queries ----------------------------------------------------------------
  int64_t event_count() const;
  // From the earliest start to the latest end over every lane.
  TimeSpan Span() const;
  // Events whose name, display name or HLO-naming stat (hlo_op, hlo_module,
  // long_name, tf_op) contains `needle`, ignoring case; in plane, lane and
  // time order, at most `limit`.
  std::vector<EventRef> Search(absl::string_view needle, int64_t limit = INT64_MAX) const;
  std::vector<LaneSummary> Lanes() const;
  int64_t MemoryBytes() const;

  friend bool operator==(const Timeline& a, const Timeline& b) {
    return a.origin_unix_ns_ == b.origin_unix_ns_ && a.planes_ == b.planes_ &&
           a.flows_ == b.flows_;
  }

 private:
  int64_t origin_unix_ns_ = 0;
  std::deque<TimelinePlane> planes_;
  std::vector<Flow> flows_;
};

}  // namespace systolic::trace
