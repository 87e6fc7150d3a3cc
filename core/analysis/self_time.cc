#include "core/analysis/self_time.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace systolic::analysis {
namespace {

// Sorted, merged, non-empty intervals.
std::vector<std::pair<int64_t, int64_t>> Merge(std::vector<std::pair<int64_t, int64_t>> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& [start, end] : spans) {
    if (end <= start) continue;
    if (!merged.empty() && start <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, end);
    } else {
      merged.emplace_back(start, end);
    }
  }
  return merged;
}

// How much of [from, to) lies inside the merged `windows`, walking `next`
// forward (segments come in increasing order).
int64_t InsideWindows(const std::vector<std::pair<int64_t, int64_t>>& windows, size_t& next,
                      int64_t from, int64_t to) {
  while (next < windows.size() && windows[next].second <= from) ++next;
  int64_t inside = 0;
  for (size_t w = next; w < windows.size() && windows[w].first < to; ++w) {
    inside += std::min(to, windows[w].second) - std::max(from, windows[w].first);
  }
  return inside;
}

}  // namespace

SelfTime AttributeSelfTime(std::vector<SelfTimeEvent> events,
                           std::vector<std::pair<int64_t, int64_t>> windows, int32_t owners) {
  SelfTime result;
  result.owner_ps.assign(size_t(std::max(owners, 0)), 0);
  const std::vector<std::pair<int64_t, int64_t>> measured = Merge(std::move(windows));
  for (const auto& [start, end] : measured) result.measured_ps += end - start;

  // Boundaries in time order; at one instant, ends before starts.
  struct Boundary {
    int64_t time;
    bool start;
    int32_t event;
  };
  std::vector<Boundary> boundaries;
  boundaries.reserve(events.size() * 2);
  for (size_t i = 0; i < events.size(); ++i) {
    const SelfTimeEvent& e = events[i];
    if (e.end_ps <= e.start_ps || e.owner < 0 || e.owner >= owners) continue;
    boundaries.push_back({e.start_ps, true, int32_t(i)});
    boundaries.push_back({e.end_ps, false, int32_t(i)});
  }
  std::sort(boundaries.begin(), boundaries.end(), [](const Boundary& a, const Boundary& b) {
    return a.time != b.time ? a.time < b.time : (!a.start && b.start);
  });
  // The events covering the current instant, the winner first.
  std::set<std::tuple<uint8_t, int64_t, int32_t>> active;
  size_t next_window = 0;
  int64_t attributed = 0;
  for (size_t b = 0; b < boundaries.size(); ++b) {
    const Boundary& boundary = boundaries[b];
    const SelfTimeEvent& e = events[size_t(boundary.event)];
    const auto key = std::make_tuple(e.priority, e.start_ps, boundary.event);
    if (boundary.start) {
      active.insert(key);
    } else {
      active.erase(key);
    }
    if (active.empty() || b + 1 == boundaries.size()) continue;
    const int64_t from = boundary.time, to = boundaries[b + 1].time;
    if (to <= from) continue;
    const int64_t inside = InsideWindows(measured, next_window, from, to);
    const int32_t owner = events[size_t(std::get<2>(*active.begin()))].owner;
    result.owner_ps[size_t(owner)] += inside;
    attributed += inside;
  }
  result.idle_ps = result.measured_ps - attributed;
  return result;
}

}  // namespace systolic::analysis
