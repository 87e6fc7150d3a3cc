#include "core/analysis/lane_overview.h"

#include <algorithm>

namespace systolic::analysis {

void LaneOverview::Vote(Bucket& bucket, int32_t metadata_id, int64_t weight) {
  // One-counter majority vote weighted by time: the name that fills more
  // than half of the bucket's busy time always wins.
  if (bucket.metadata_id == metadata_id) {
    bucket.heavy_ps += weight;
  } else if (bucket.heavy_ps < weight) {
    bucket.metadata_id = metadata_id;
    bucket.heavy_ps = weight - bucket.heavy_ps;
  } else {
    bucket.heavy_ps -= weight;
  }
}

void LaneOverview::AddEvent(const trace::TimelineLine& line, int64_t event, int level) {
  std::vector<Bucket>& buckets = levels_[level];
  const int64_t width = base_ps_ << level;
  const int64_t start = line.start_ps(event) - origin_ps_;
  const int64_t end = line.end_ps(event) - origin_ps_;
  const int64_t first = std::min<int64_t>(start / width, int64_t(buckets.size()) - 1);
  ++buckets[first].count;
  for (int64_t b = first; b < int64_t(buckets.size()) && b * width < end; ++b) {
    const int64_t clipped = std::min(end, (b + 1) * width) - std::max(start, b * width);
    if (clipped <= 0) continue;
    buckets[b].busy_ps += clipped;
    Vote(buckets[b], line.metadata_id(event), clipped);
  }
}

LaneOverview LaneOverview::Build(const trace::TimelineLine& line, int64_t max_buckets,
                                 int64_t min_events) {
  LaneOverview overview;
  const int64_t n = line.size();
  if (n < std::max<int64_t>(min_events, 1) || !line.sorted()) return overview;
  overview.origin_ps_ = line.min_start_ps();
  const int64_t span = line.max_end_ps() - overview.origin_ps_;
  if (span <= 0) return overview;
  const int64_t target = std::clamp<int64_t>(n / 4, 64, std::max<int64_t>(max_buckets, 64));
  overview.base_ps_ = std::max<int64_t>(1, (span + target - 1) / target);
  const int64_t level0 = span / overview.base_ps_ + 1;

  // Level k holds the events shorter than four of its buckets; a longer
  // event enters at the first level where it is short.
  int levels = 1;
  while ((level0 >> (levels - 1)) > 1) ++levels;
  overview.levels_.resize(levels);
  overview.levels_[0].resize(level0);
  std::vector<std::vector<int64_t>> entering(levels);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bucket = (line.start_ps(i) - overview.origin_ps_) / overview.base_ps_;
    Bucket& b = overview.levels_[0][bucket];
    if (b.longest < 0 || line.duration_ps(i) > line.duration_ps(b.longest)) b.longest = i;
    int level = 0;
    while (level + 1 < levels && line.duration_ps(i) >= 4 * (overview.base_ps_ << level)) ++level;
    if (level == 0) {
      overview.AddEvent(line, i, 0);
    } else {
      entering[level].push_back(i);
    }
  }
  for (int level = 1; level < levels; ++level) {
    const std::vector<Bucket>& below = overview.levels_[level - 1];
    std::vector<Bucket>& here = overview.levels_[level];
    here.resize((below.size() + 1) / 2);
    for (size_t j = 0; j < here.size(); ++j) {
      Bucket merged = below[2 * j];
      if (2 * j + 1 < below.size()) {
        const Bucket& right = below[2 * j + 1];
        merged.busy_ps += right.busy_ps;
        merged.count += right.count;
        if (right.metadata_id >= 0) Vote(merged, right.metadata_id, right.heavy_ps);
        if (right.longest >= 0 &&
            (merged.longest < 0 || line.duration_ps(right.longest) > line.duration_ps(merged.longest))) {
          merged.longest = right.longest;
        }
      }
      here[j] = merged;
    }
    for (int64_t i : entering[level]) overview.AddEvent(line, i, level);
  }
  return overview;
}

std::vector<trace::LodItem> LaneOverview::LevelOfDetail(const trace::TimelineLine& line, int64_t from_ps,
                                                 int64_t to_ps, int width_px) const {
  if (empty() || width_px <= 0 || to_ps <= from_ps) {
    return line.LevelOfDetail(from_ps, to_ps, width_px);
  }
  const double ps_per_px = double(to_ps - from_ps) / width_px;
  // The coarsest level whose buckets are at most half a pixel.
  int level = -1;
  while (level + 1 < level_count() && double(base_ps_ << (level + 1)) * 2 <= ps_per_px) ++level;
  if (level < 0) return line.LevelOfDetail(from_ps, to_ps, width_px);

  const std::vector<Bucket>& buckets = levels_[level];
  const int64_t width = base_ps_ << level;
  const int64_t first = std::max<int64_t>(0, (from_ps - origin_ps_) / width);
  const int64_t last = std::min<int64_t>(int64_t(buckets.size()) - 1,
                                         (to_ps - 1 - origin_ps_) / width);
  std::vector<trace::LodItem> items;
  std::vector<int64_t> long_events;

  // Events begun before the window that reach into it.
  const trace::EventRange edge = line.Window(from_ps, from_ps + 1);
  for (int64_t i = edge.begin; i < edge.end && i < edge.begin + 4096; ++i) {
    if (line.start_ps(i) < from_ps && line.end_ps(i) > from_ps &&
        double(std::min(line.end_ps(i), to_ps) - from_ps) >= ps_per_px) {
      long_events.push_back(i);
    }
  }

  trace::LodItem column;
  int64_t column_px = -1;
  auto flush = [&] {
    if (column_px >= 0 && (column.event_count > 0 || column.busy_ps > 0)) items.push_back(column);
    column_px = -1;
  };
  Bucket votes;
  for (int64_t b = first; b <= last; ++b) {
    const Bucket& bucket = buckets[b];
    if (bucket.longest >= 0) {
      const int64_t i = bucket.longest;
      const int64_t start = line.start_ps(i);
      if (start >= from_ps && start < to_ps &&
          double(std::min(line.end_ps(i), to_ps) - start) >= ps_per_px) {
        long_events.push_back(i);
      }
    }
    if (bucket.count == 0 && bucket.busy_ps == 0) continue;
    const int64_t bucket_start = origin_ps_ + b * width;
    const int64_t start = std::max(bucket_start, from_ps);
    const int64_t end = std::min(bucket_start + width, to_ps);
    const int64_t px = int64_t(double(start - from_ps) / ps_per_px);
    if (px != column_px) {
      if (column_px >= 0) column.metadata_id = votes.metadata_id;
      flush();
      column = trace::LodItem{start, end, 0, 0, -1, -1};
      column_px = px;
      votes = Bucket();
    }
    column.end_ps = std::max(column.end_ps, end);
    column.event_count += bucket.count;
    column.busy_ps += std::min(bucket.busy_ps, end - start);
    if (bucket.metadata_id >= 0) Vote(votes, bucket.metadata_id, bucket.heavy_ps);
  }
  if (column_px >= 0) column.metadata_id = votes.metadata_id;
  flush();

  std::sort(long_events.begin(), long_events.end());
  long_events.erase(std::unique(long_events.begin(), long_events.end()), long_events.end());
  // An event drawn as itself that this level also counts as short leaves
  // the columns it was counted in.
  const size_t columns = items.size();
  for (int64_t i : long_events) {
    const int64_t start = std::max(line.start_ps(i), from_ps);
    const int64_t end = std::min(line.end_ps(i), to_ps);
    if (line.duration_ps(i) < 4 * width) {
      auto it = std::lower_bound(items.begin(), items.begin() + columns, start,
                                 [](const trace::LodItem& c, int64_t t) { return c.end_ps <= t; });
      bool counted = false;
      for (; it != items.begin() + columns && it->start_ps < end; ++it) {
        it->busy_ps -= std::max<int64_t>(0, std::min(end, it->end_ps) - std::max(start, it->start_ps));
        if (!counted && line.start_ps(i) >= it->start_ps) {
          --it->event_count;
          counted = true;
        }
      }
    }
    items.push_back({start, end, 1, end - start, line.metadata_id(i), i});
  }
  items.erase(std::remove_if(items.begin(), items.begin() + columns,
                             [](const trace::LodItem& c) { return c.busy_ps <= 0 && c.event_count <= 0; }),
              items.begin() + columns);
  for (trace::LodItem& item : items) {
    if (item.event_index < 0) {
      item.busy_ps = std::max<int64_t>(item.busy_ps, 0);
      item.event_count = std::max<int64_t>(item.event_count, 0);
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const trace::LodItem& a, const trace::LodItem& b) { return a.start_ps < b.start_ps; });
  return items;
}

int64_t LaneOverview::MemoryBytes() const {
  int64_t bytes = 0;
  for (const auto& level : levels_) bytes += int64_t(level.capacity() * sizeof(Bucket));
  return bytes;
}

}  // namespace systolic::analysis
