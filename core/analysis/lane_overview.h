// A multi-resolution summary of one lane, so that drawing a lane of
// millions of events zoomed out costs what the window's pixels cost, not
// what its events cost. Level 0 cuts the lane into at most `max_buckets`
// equal buckets; each next level halves their number. A bucket keeps the
// time its short events fill, their count, the name busiest among them and
// its longest event; a frame reads about four buckets per pixel.
//
// Zoomed in far enough that level 0 is coarser than half a pixel, the
// window holds few events and TimelineLine::LevelOfDetail answers exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "core/trace/timeline_line.h"

namespace systolic::analysis {

class LaneOverview {
 public:
  LaneOverview() = default;
  // Summarises a sorted lane. Lanes of fewer than `min_events` events get
  // an empty overview: their exact level of detail is cheap already.
  static LaneOverview Build(const trace::TimelineLine& line, int64_t max_buckets = int64_t(1) << 16,
                            int64_t min_events = 4096);

  bool empty() const { return levels_.empty(); }
  int32_t level_count() const { return int32_t(levels_.size()); }
  int64_t base_bucket_ps() const { return base_ps_; }

  // What TimelineLine::LevelOfDetail returns for the same window, from the
  // summary when zoomed out: events at least a pixel wide as themselves
  // (the longest per bucket), shorter ones merged per pixel column. Items
  // are ordered by start.
  std::vector<trace::LodItem> LevelOfDetail(const trace::TimelineLine& line, int64_t from_ps, int64_t to_ps,
                                     int width_px) const;

  int64_t MemoryBytes() const;

 private:
  struct Bucket {
    int64_t busy_ps = 0;      // time of the short events, clipped to the bucket
    int64_t heavy_ps = 0;     // weight of `metadata_id` (a majority vote by time)
    int64_t longest = -1;     // longest event starting in the bucket
    int32_t count = 0;        // short events starting in the bucket
    int32_t metadata_id = -1;
  };
  static void Vote(Bucket& bucket, int32_t metadata_id, int64_t weight);
  void AddEvent(const trace::TimelineLine& line, int64_t event, int level);

  int64_t origin_ps_ = 0;
  int64_t base_ps_ = 0;
  std::vector<std::vector<Bucket>> levels_;
};

}  // namespace systolic::analysis
