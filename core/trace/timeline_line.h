// One lane of a timeline ("core 0 / MXU 1", "DMA 0", "ICI +x", a host
// thread): its events as parallel columns, so an event costs 20 bytes (start,
// duration, name id), plus 4 when the lane has per-event stats and 4 when it
// has details. Names and stats shared by every event of a name live in the
// plane; an event's own stats are one of the lane's stat sets, each stored
// once however many events carry it (the tiles of one kernel share theirs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/trace/default_init_allocator.h"
#include "core/trace/stat.h"

namespace systolic::trace {

enum class LaneKind : uint8_t {
  kOther,
  kMxu,
  kVector,
  kScalar,
  kDma,
  kIci,
  kHost,
  kSteps,
  kModules,
  kOps,
};
const char* LaneKindName(LaneKind kind);

// Indices [begin, end) of a line's events.
struct EventRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
};

// What the timeline draws for a stretch of a lane at one zoom level: either
// one event at least a pixel wide (`event_index` >= 0) or the events merged
// into one pixel column (`event_index` == -1).
// An event without a detail string.
inline constexpr uint32_t kNoDetail = UINT32_MAX;

struct LodItem {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  int64_t event_count = 0;
  int64_t busy_ps = 0;           // summed durations, clipped to the window
  int32_t metadata_id = -1;      // the event's name, or the name busiest in the column
  int64_t event_index = -1;
};

class TimelineLine {
 public:
  TimelineLine(int32_t id, std::string name, LaneKind kind, int32_t core, int32_t unit);

  int32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  LaneKind kind() const { return kind_; }
  int32_t core() const { return core_; }  // -1 when not a core's unit
  int32_t unit() const { return unit_; }  // -1 when there is one unit of its kind

  // --- Events -----------------------------------------------------------------
  int64_t size() const { return int64_t(starts_.size()); }
  bool empty() const { return starts_.empty(); }
  int64_t start_ps(int64_t i) const { return starts_[i]; }
  int64_t duration_ps(int64_t i) const { return durations_[i]; }
  int64_t end_ps(int64_t i) const { return starts_[i] + durations_[i]; }
  int32_t metadata_id(int64_t i) const { return metadata_ids_[i]; }
  // The stats of this event alone (those of its name are in the plane).
  absl::Span<const Stat> stats(int64_t i) const { return stat_set(stat_set_id(i)); }
  uint32_t stat_set_id(int64_t i) const { return stat_set_ids_.empty() ? 0 : stat_set_ids_[i]; }
  bool has_event_stats() const { return !stat_set_ids_.empty(); }
  // The event's own detail, a string of the plane (the tile of a kernel a
  // simulated event ran: "mxu m0 n2 k7"), or kNoDetail.
  uint32_t detail(int64_t i) const { return details_.empty() ? kNoDetail : details_[i]; }
  bool has_details() const { return !details_.empty(); }

  // Appends an event and returns its index. Events may come in any order;
  // Sort() (Timeline::Finalize) orders them for the queries.
  int64_t Append(int64_t start_ps, int64_t duration_ps, int32_t metadata_id,
                 absl::Span<const Stat> stats = {}, uint32_t detail = kNoDetail);
  // Appends `n` events at once (decoders append millions): `fill(starts,
  // durations, metadata_ids)` writes the n entries of each column and
  // returns false to abandon the batch (nothing is then appended). Event i
  // has stat set `stat_set_ids[i]` and detail `details[i]` (spans empty:
  // none).
  template <typename Fill>
  bool AppendColumns(int64_t n, Fill fill, absl::Span<const uint32_t> stat_set_ids = {},
                     absl::Span<const uint32_t> details = {});
  // Room for at least `events` events in all (grows geometrically).
  void Reserve(int64_t events);
  // Gives back room reserved beyond the events held, and the index of the
  // stat sets (rebuilt if more events come).
  void ShrinkToFit();

  // --- Stat sets ----------------------------------------------------------------
  // Set 0 is the empty set.
  int64_t stat_set_count() const { return int64_t(set_begin_.size()) - 1; }
  absl::Span<const Stat> stat_set(uint32_t id) const {
    return absl::Span<const Stat>(set_stats_.data() + set_begin_[id],
                                  set_begin_[id + 1] - set_begin_[id]);
  }
  // The id of a set equal to `stats`, added when new.
  uint32_t InternStatSet(absl::Span<const Stat> stats);
  // Always adds a set (readers keep the ids the writer gave).
  uint32_t AddStatSet(absl::Span<const Stat> stats);

  // --- Order ------------------------------------------------------------------
  // Events ordered by start, the longer first on equal starts (so a parent
  // precedes its children).
  bool sorted() const { return sorted_; }
  // Orders the events; returns the new index of every old index, or an
  // empty vector when nothing moved.
  std::vector<int64_t> Sort();

  // --- Queries (on a sorted line) ----------------------------------------------
  // A range holding every event that overlaps [from_ps, to_ps) (an instant
  // event overlaps when it lies inside). The range may also hold a few
  // events that end before `from_ps`; Overlaps() tells them apart.
  EventRange Window(int64_t from_ps, int64_t to_ps) const;
  bool Overlaps(int64_t i, int64_t from_ps, int64_t to_ps) const;
  // The lane drawn `width_px` pixels wide over [from_ps, to_ps): events at
  // least a pixel wide as themselves, smaller ones merged per pixel column.
  std::vector<LodItem> LevelOfDetail(int64_t from_ps, int64_t to_ps, int width_px) const;
  // Earliest start and latest end; {0, 0} when empty.
  int64_t min_start_ps() const { return starts_.empty() ? 0 : starts_.front(); }
  int64_t max_end_ps() const { return block_max_end_.empty() ? 0 : block_max_end_.back(); }
  // Time covered by at least one event.
  int64_t BusyPs() const;

  // Heap bytes held by the events and their index.
  int64_t MemoryBytes() const;

  // Same lane and same events in the same order.
  friend bool operator==(const TimelineLine& a, const TimelineLine& b);

 private:
  static constexpr int64_t kBlock = 64;
  void RebuildIndex();
  // The block index for the events from `first` on.
  void ExtendIndex(int64_t first);
  // Order, stat set, detail and index bookkeeping for the events from
  // `first` on.
  void AfterAppendColumns(int64_t first, absl::Span<const uint32_t> stat_set_ids,
                          absl::Span<const uint32_t> details);
  // A column of per-event values that stays empty until an event differs
  // from `none`, then holds one entry per event.
  static void AppendOptional(UninitVector<uint32_t>& column, int64_t first, int64_t n,
                             absl::Span<const uint32_t> values, uint32_t none);

  int32_t id_;
  std::string name_;
  LaneKind kind_;
  int32_t core_;
  int32_t unit_;

  UninitVector<int64_t> starts_;
  UninitVector<int64_t> durations_;
  UninitVector<int32_t> metadata_ids_;
  // Empty until an event has stats or a detail.
  UninitVector<uint32_t> stat_set_ids_;
  UninitVector<uint32_t> details_;
  // stat_set(id) = set_stats_[set_begin_[id], set_begin_[id+1]).
  std::vector<uint32_t> set_begin_ = {0, 0};
  std::vector<Stat> set_stats_;
  // Hash of a set's stats -> a set with that hash; empty when dropped.
  absl::flat_hash_map<uint64_t, uint32_t> set_index_;
  // The latest end among the events of blocks 0..b (kBlock events each): a
  // window query skips every block before the first that reaches `from`.
  std::vector<int64_t> block_max_end_;
  bool sorted_ = true;
};

template <typename Fill>
bool TimelineLine::AppendColumns(int64_t n, Fill fill, absl::Span<const uint32_t> stat_set_ids,
                                 absl::Span<const uint32_t> details) {
  const int64_t first = size();
  Reserve(first + n);
  starts_.resize(first + n);
  durations_.resize(first + n);
  metadata_ids_.resize(first + n);
  if (!fill(starts_.data() + first, durations_.data() + first, metadata_ids_.data() + first)) {
    starts_.resize(first);
    durations_.resize(first);
    metadata_ids_.resize(first);
    return false;
  }
  AfterAppendColumns(first, stat_set_ids, details);
  return true;
}

}  // namespace systolic::trace
