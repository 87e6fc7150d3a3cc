#include "core/trace/timeline_line.h"

#include <algorithm>
#include <numeric>

#include "absl/hash/hash.h"

namespace systolic::trace {

const char* LaneKindName(LaneKind kind) {
  switch (kind) {
    case LaneKind::kOther: return "other";
    case LaneKind::kMxu: return "MXU";
    case LaneKind::kVector: return "vector";
    case LaneKind::kScalar: return "scalar";
    case LaneKind::kDma: return "DMA";
    case LaneKind::kIci: return "ICI";
    case LaneKind::kHost: return "host";
    case LaneKind::kSteps: return "steps";
    case LaneKind::kModules: return "modules";
    case LaneKind::kOps: return "ops";
  }
  return "other";
}

TimelineLine::TimelineLine(int32_t id, std::string name, LaneKind kind, int32_t core,
                           int32_t unit)
    : id_(id), name_(std::move(name)), kind_(kind), core_(core), unit_(unit) {}

uint32_t TimelineLine::AddStatSet(absl::Span<const Stat> stats) {
  set_stats_.insert(set_stats_.end(), stats.begin(), stats.end());
  set_begin_.push_back(uint32_t(set_stats_.size()));
  return uint32_t(stat_set_count() - 1);
}

namespace {
uint64_t HashOfStats(absl::Span<const Stat> stats) {
  uint64_t h = stats.size();
  for (const Stat& s : stats) {
    h = absl::HashOf(h, s.name_id, uint8_t(s.kind), s.uint64_value);
  }
  return h;
}
}  // namespace

uint32_t TimelineLine::InternStatSet(absl::Span<const Stat> stats) {
  if (stats.empty()) return 0;
  if (set_index_.empty()) {
    for (uint32_t id = 1; int64_t(id) < stat_set_count(); ++id) set_index_[HashOfStats(stat_set(id))] = id;
  }
  // A hash shared by two different sets keeps the later one; the earlier
  // is then only not shared again.
  auto [it, added] = set_index_.try_emplace(HashOfStats(stats), 0);
  if (!added) {
    absl::Span<const Stat> known = stat_set(it->second);
    if (std::equal(known.begin(), known.end(), stats.begin(), stats.end())) return it->second;
  }
  it->second = AddStatSet(stats);
  return it->second;
}

void TimelineLine::AppendOptional(UninitVector<uint32_t>& column, int64_t first, int64_t n,
                                  absl::Span<const uint32_t> values, uint32_t none) {
  if (column.empty() && values.empty()) return;
  if (column.empty()) {
    if (std::all_of(values.begin(), values.end(), [&](uint32_t v) { return v == none; })) return;
    column.assign(size_t(first), none);
  }
  if (values.empty()) {
    column.resize(size_t(n), none);
  } else {
    column.insert(column.end(), values.begin(), values.end());
  }
}

int64_t TimelineLine::Append(int64_t start_ps, int64_t duration_ps, int32_t metadata_id,
                             absl::Span<const Stat> stats, uint32_t detail) {
  const int64_t index = size();
  if (index > 0 && (start_ps < starts_.back() ||
                    (start_ps == starts_.back() && duration_ps > durations_.back()))) {
    sorted_ = false;
  }
  starts_.push_back(start_ps);
  durations_.push_back(duration_ps);
  metadata_ids_.push_back(metadata_id);
  const uint32_t set = InternStatSet(stats);
  AppendOptional(stat_set_ids_, index, index + 1, absl::MakeConstSpan(&set, 1), 0);
  AppendOptional(details_, index, index + 1, absl::MakeConstSpan(&detail, 1), kNoDetail);
  const int64_t end = start_ps + duration_ps;
  if (index % kBlock == 0) {
    block_max_end_.push_back(block_max_end_.empty() ? end : std::max(block_max_end_.back(), end));
  } else {
    block_max_end_.back() = std::max(block_max_end_.back(), end);
  }
  return index;
}

void TimelineLine::AfterAppendColumns(int64_t first, absl::Span<const uint32_t> stat_set_ids,
                                      absl::Span<const uint32_t> details) {
  const int64_t n = size();
  if (first == n) return;
  for (int64_t i = std::max<int64_t>(first, 1); i < n && sorted_; ++i) {
    if (starts_[i] < starts_[i - 1] ||
        (starts_[i] == starts_[i - 1] && durations_[i] > durations_[i - 1])) {
      sorted_ = false;
    }
  }
  AppendOptional(stat_set_ids_, first, n, stat_set_ids, 0);
  AppendOptional(details_, first, n, details, kNoDetail);
  ExtendIndex(first);
}

void TimelineLine::ExtendIndex(int64_t first) {
  // The entry of a partly filled last block is recomputed.
  int64_t running = first == 0 ? INT64_MIN : block_max_end_.back();
  if (first % kBlock != 0) block_max_end_.pop_back();
  const int64_t n = size();
  for (int64_t i = first; i < n; ++i) {
    running = std::max(running, starts_[i] + durations_[i]);
    if ((i + 1) % kBlock == 0 || i + 1 == n) block_max_end_.push_back(running);
  }
}

void TimelineLine::Reserve(int64_t events) {
  if (events <= int64_t(starts_.capacity())) return;
  // Geometric growth: readers reserve once per chunk of a growing lane.
  events = std::max<int64_t>(events, int64_t(starts_.capacity()) * 3 / 2);
  starts_.reserve(events);
  durations_.reserve(events);
  metadata_ids_.reserve(events);
  if (!stat_set_ids_.empty()) stat_set_ids_.reserve(events);
  if (!details_.empty()) details_.reserve(events);
  block_max_end_.reserve((events + kBlock - 1) / kBlock);
}

void TimelineLine::ShrinkToFit() {
  starts_.shrink_to_fit();
  durations_.shrink_to_fit();
  metadata_ids_.shrink_to_fit();
  stat_set_ids_.shrink_to_fit();
  details_.shrink_to_fit();
  set_begin_.shrink_to_fit();
  set_stats_.shrink_to_fit();
  set_index_ = {};
  block_max_end_.shrink_to_fit();
}

std::vector<int64_t> TimelineLine::Sort() {
  if (sorted_) return {};
  const int64_t n = size();
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (starts_[a] != starts_[b]) return starts_[a] < starts_[b];
    return durations_[a] > durations_[b];
  });
  auto permute = [&](auto& column) {
    std::remove_reference_t<decltype(column)> sorted(n);
    for (int64_t i = 0; i < n; ++i) sorted[i] = column[order[i]];
    column.swap(sorted);
  };
  permute(starts_);
  permute(durations_);
  permute(metadata_ids_);
  if (!stat_set_ids_.empty()) permute(stat_set_ids_);
  if (!details_.empty()) permute(details_);
  RebuildIndex();
  sorted_ = true;
  std::vector<int64_t> new_index(n);
  for (int64_t i = 0; i < n; ++i) new_index[order[i]] = i;
  return new_index;
}

void TimelineLine::RebuildIndex() {
  block_max_end_.clear();
  ExtendIndex(0);
}

EventRange TimelineLine::Window(int64_t from_ps, int64_t to_ps) const {
  // The first block whose running latest end reaches `from` holds the first
  // event that can overlap; every earlier event ends before the window.
  auto block = std::lower_bound(block_max_end_.begin(), block_max_end_.end(), from_ps);
  int64_t begin = int64_t(block - block_max_end_.begin()) * kBlock;
  // Events starting at or after `to` are past the window (instants at `from`
  // stay in).
  int64_t end = int64_t(std::lower_bound(starts_.begin(), starts_.end(), to_ps) - starts_.begin());
  if (to_ps <= from_ps) end = int64_t(std::upper_bound(starts_.begin(), starts_.end(), to_ps) -
                                      starts_.begin());
  begin = std::min(begin, end);
  return {begin, end};
}

bool TimelineLine::Overlaps(int64_t i, int64_t from_ps, int64_t to_ps) const {
  const int64_t start = starts_[i], end = start + durations_[i];
  if (durations_[i] == 0) return start >= from_ps && (start < to_ps || start == from_ps);
  return start < to_ps && end > from_ps;
}

std::vector<LodItem> TimelineLine::LevelOfDetail(int64_t from_ps, int64_t to_ps,
                                                 int width_px) const {
  std::vector<LodItem> items;
  if (width_px <= 0 || to_ps <= from_ps) return items;
  const double ps_per_px = double(to_ps - from_ps) / width_px;
  const EventRange range = Window(from_ps, to_ps);

  // The merged column being built, and the time each name has in it.
  LodItem column;
  int64_t column_px = -1;
  std::vector<std::pair<int32_t, int64_t>> names;
  auto flush = [&] {
    if (column_px < 0) return;
    int64_t best = -1;
    for (const auto& [id, busy] : names) {
      if (busy > best) {
        best = busy;
        column.metadata_id = id;
      }
    }
    items.push_back(column);
    column_px = -1;
    names.clear();
  };

  for (int64_t i = range.begin; i < range.end; ++i) {
    if (!Overlaps(i, from_ps, to_ps)) continue;
    const int64_t start = std::max(starts_[i], from_ps);
    const int64_t end = std::min(end_ps(i), to_ps);
    const int64_t clipped = end - start;
    if (double(clipped) >= ps_per_px) {
      flush();
      items.push_back({start, end, 1, clipped, metadata_ids_[i], i});
      continue;
    }
    const int64_t px = int64_t(double(start - from_ps) / ps_per_px);
    if (px != column_px) {
      flush();
      column = LodItem{start, end, 0, 0, -1, -1};
      column_px = px;
    }
    column.end_ps = std::max(column.end_ps, end);
    ++column.event_count;
    column.busy_ps += clipped;
    auto named = std::find_if(names.begin(), names.end(),
                              [&](const auto& entry) { return entry.first == metadata_ids_[i]; });
    if (named == names.end()) {
      names.emplace_back(metadata_ids_[i], clipped);
    } else {
      named->second += clipped;
    }
  }
  flush();
  return items;
}

int64_t TimelineLine::BusyPs() const {
  // On a sorted line the union of intervals is one sweep.
  int64_t busy = 0, covered_to = INT64_MIN;
  for (int64_t i = 0; i < size(); ++i) {
    const int64_t start = std::max(starts_[i], covered_to), end = end_ps(i);
    if (end > start) busy += end - start;
    covered_to = std::max(covered_to, end);
  }
  return busy;
}

int64_t TimelineLine::MemoryBytes() const {
  return int64_t(starts_.capacity() * sizeof(int64_t) + durations_.capacity() * sizeof(int64_t) +
                 metadata_ids_.capacity() * sizeof(int32_t) +
                 (stat_set_ids_.capacity() + details_.capacity() + set_begin_.capacity()) *
                     sizeof(uint32_t) +
                 set_stats_.capacity() * sizeof(Stat) +
                 set_index_.capacity() * (sizeof(uint64_t) + sizeof(uint32_t) + 1) +
                 block_max_end_.capacity() * sizeof(int64_t));
}

bool operator==(const TimelineLine& a, const TimelineLine& b) {
  if (a.id_ != b.id_ || a.name_ != b.name_ || a.kind_ != b.kind_ || a.core_ != b.core_ ||
      a.unit_ != b.unit_ || a.starts_ != b.starts_ || a.durations_ != b.durations_ ||
      a.metadata_ids_ != b.metadata_ids_) {
    return false;
  }
  for (int64_t i = 0; i < a.size(); ++i) {
    if (a.detail(i) != b.detail(i)) return false;
    absl::Span<const Stat> x = a.stats(i), y = b.stats(i);
    if (!std::equal(x.begin(), x.end(), y.begin(), y.end())) return false;
  }
  return true;
}

}  // namespace systolic::trace
