#include "core/analysis/unit_utilization.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"

namespace systolic::analysis {
namespace {

constexpr trace::LaneKind kCharted[] = {trace::LaneKind::kMxu, trace::LaneKind::kVector, trace::LaneKind::kDma,
                                 trace::LaneKind::kIci};

bool Charted(trace::LaneKind kind) { return std::find(std::begin(kCharted), std::end(kCharted), kind) != std::end(kCharted); }

int Order(trace::LaneKind kind) {
  return int(std::find(std::begin(kCharted), std::end(kCharted), kind) - std::begin(kCharted));
}

// Adds the time [start, end) spends in each bucket to `busy_ps`.
void Spread(int64_t start, int64_t end, int64_t origin, int64_t bucket_ps,
            std::vector<int64_t>& busy_ps) {
  const int64_t buckets = int64_t(busy_ps.size());
  int64_t b = std::clamp<int64_t>((start - origin) / bucket_ps, 0, buckets - 1);
  while (start < end && b < buckets) {
    const int64_t bucket_end = origin + (b + 1) * bucket_ps;
    const int64_t to = std::min(end, bucket_end);
    busy_ps[size_t(b)] += std::max<int64_t>(0, to - start);
    start = to;
    ++b;
  }
}

}  // namespace

UnitUtilization UnitUtilizationOf(const trace::Timeline& timeline, int32_t plane_index, int buckets) {
  UnitUtilization out;
  if (plane_index < 0 || plane_index >= timeline.plane_count() || buckets < 1) return out;
  const trace::TimelinePlane& plane = timeline.plane(plane_index);
  int64_t first = INT64_MAX, last = INT64_MIN;
  // (core, kind) -> lanes.
  std::map<std::pair<int32_t, int>, std::vector<const trace::TimelineLine*>> groups;
  for (int32_t l = 0; l < plane.line_count(); ++l) {
    const trace::TimelineLine& line = plane.line(l);
    if (line.core() < 0 || !Charted(line.kind())) continue;
    groups[{line.core(), Order(line.kind())}].push_back(&line);
    if (line.empty()) continue;
    first = std::min(first, line.min_start_ps());
    last = std::max(last, line.max_end_ps());
  }
  if (groups.empty() || first >= last) return out;
  out.start_ps = first;
  out.bucket_ps = std::max<int64_t>(1, (last - first + buckets - 1) / buckets);
  for (const auto& [key, lines] : groups) {
    UtilizationSeries series;
    series.core = key.first;
    series.kind = kCharted[key.second];
    series.units = int32_t(lines.size());
    series.name = absl::StrCat("core ", series.core, " · ", trace::LaneKindName(series.kind));
    std::vector<int64_t> busy_ps(size_t(buckets), 0);
    int64_t total = 0;
    for (const trace::TimelineLine* line : lines) {
      // Merged busy intervals, so nested or overlapping events count once.
      int64_t open = 0, close = -1;
      for (int64_t i = 0; i < line->size(); ++i) {
        const int64_t s = line->start_ps(i), e = line->end_ps(i);
        if (s > close) {
          if (close > open) Spread(open, close, first, out.bucket_ps, busy_ps);
          total += std::max<int64_t>(0, close - open);
          open = s;
          close = e;
        } else {
          close = std::max(close, e);
        }
      }
      if (close > open) Spread(open, close, first, out.bucket_ps, busy_ps);
      total += std::max<int64_t>(0, close - open);
    }
    const double capacity = double(out.bucket_ps) * double(series.units);
    for (int64_t ps : busy_ps) series.busy.push_back(std::min(1.0, double(ps) / capacity));
    series.mean = double(total) / (double(last - first) * double(series.units));
    out.series.push_back(std::move(series));
  }
  return out;
}

}  // namespace systolic::analysis
