#include "core/analysis/op_profile.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/analysis/self_time.h"

namespace systolic::analysis {
namespace {

// Units an op runs on; steps, module and op summaries and host threads would
// count its time twice.
bool IsUnitLane(trace::LaneKind kind) {
  switch (kind) {
    case trace::LaneKind::kSteps:
    case trace::LaneKind::kModules:
    case trace::LaneKind::kOps:
    case trace::LaneKind::kHost: return false;
    default: return true;
  }
}

OpCategory CategoryOf(trace::LaneKind kind) {
  switch (kind) {
    case trace::LaneKind::kMxu: return OpCategory::kMxu;
    case trace::LaneKind::kVector:
    case trace::LaneKind::kScalar: return OpCategory::kVector;
    case trace::LaneKind::kDma: return OpCategory::kDma;
    default: return OpCategory::kOther;
  }
}

// Stat `name_id` of an event: its own first, then its name's.
const trace::Stat* FindStat(absl::Span<const trace::Stat> event_stats, const trace::EventMetadata& metadata,
                     int32_t name_id) {
  if (name_id < 0) return nullptr;
  for (const trace::Stat& s : event_stats) {
    if (s.name_id == name_id) return &s;
  }
  for (const trace::Stat& s : metadata.stats) {
    if (s.name_id == name_id) return &s;
  }
  return nullptr;
}

struct Accumulator {
  int32_t owner = -1;  // its index for the self-time attribution
  OpStats stats;
  std::vector<std::pair<int64_t, int64_t>> intervals;
  int64_t category_ps[kOpCategoryCount] = {};
  double peak_rate = 1;  // its MXU rate over bf16's (2 for int8 on an int8 mode)
};

int64_t UnionLength(std::vector<std::pair<int64_t, int64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  int64_t total = 0;
  int64_t start = 0;
  int64_t end = INT64_MIN;
  for (const auto& [s, e] : intervals) {
    if (s > end) {
      if (end > start) total += end - start;
      start = s;
      end = e;
    } else {
      end = std::max(end, e);
    }
  }
  if (end > start) total += end - start;
  return total;
}

}  // namespace

const char* OpCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kMxu: return "MXU";
    case OpCategory::kVector: return "vector";
    case OpCategory::kDma: return "DMA";
    case OpCategory::kOther: return "other";
  }
  return "other";
}

double Roofline::Attainable(double intensity) const {
  return std::min(peak_flops_per_second, intensity * bandwidth_bytes_per_second);
}

const OpStats* OpProfile::Find(const std::string& name) const {
  for (const OpStats& op : ops) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

absl::StatusOr<OpProfile> ComputeOpProfile(const trace::Profile& profile, int32_t chip_id) {
  const trace::TimelinePlane* plane = nullptr;
  for (const trace::TimelinePlane& p : profile.timeline.planes()) {
    if (p.kind() == trace::PlaneKind::kDevice && (chip_id < 0 || p.chip_id() == chip_id)) {
      plane = &p;
      break;
    }
  }
  if (plane == nullptr) {
    return absl::NotFoundError(chip_id < 0 ? std::string("the profile has no chip timeline")
                                           : absl::StrCat("the profile has no timeline of chip ", chip_id));
  }
  OpProfile result;
  result.chip_id = plane->chip_id();
  result.roofline.peak_flops_per_second = profile.chip.peak_flops_per_second;
  result.roofline.bandwidth_bytes_per_second = profile.chip.hbm_bandwidth_bytes_per_second;
  if (result.roofline.bandwidth_bytes_per_second > 0) {
    result.roofline.ridge_intensity =
        result.roofline.peak_flops_per_second / result.roofline.bandwidth_bytes_per_second;
  }

  const int32_t hlo_op = plane->FindStatName("hlo_op");
  const int32_t flops = plane->FindStatName("flops");
  const int32_t mxu_rate = plane->FindStatName("mxu_rate");
  // XProf names an op's HBM traffic "bytes_accessed".
  const int32_t bytes =
      plane->FindStatName("bytes") >= 0 ? plane->FindStatName("bytes") : plane->FindStatName("bytes_accessed");
  // A real device's profile has no unit lanes, only its "XLA Ops" lanes
  // (one event per op, named after its instruction): those are the units.
  bool has_unit_events = false;
  for (const trace::TimelineLine& line : plane->lines()) {
    has_unit_events |= IsUnitLane(line.kind()) && !line.empty();
  }
  const auto counts_as_unit = [&](trace::LaneKind kind) {
    return has_unit_events ? IsUnitLane(kind) : kind == trace::LaneKind::kOps;
  };
  absl::flat_hash_map<std::string, Accumulator> by_name;
  int64_t steps_ps = 0;
  int64_t span_start = INT64_MAX;
  int64_t span_end = INT64_MIN;
  // Every unit event for the self times; owner 0 holds the events that name
  // no instruction.
  std::vector<SelfTimeEvent> self_events;
  std::vector<std::pair<int64_t, int64_t>> step_windows;
  int32_t owners = 1;
  for (const trace::TimelineLine& line : plane->lines()) {
    if (line.kind() == trace::LaneKind::kSteps) {
      for (int64_t i = 0; i < line.size(); ++i) {
        steps_ps += line.duration_ps(i);
        step_windows.emplace_back(line.start_ps(i), line.end_ps(i));
      }
      continue;
    }
    if (!counts_as_unit(line.kind()) || line.empty()) continue;
    span_start = std::min(span_start, line.min_start_ps());
    span_end = std::max(span_end, line.max_end_ps());
    const OpCategory category = CategoryOf(line.kind());
    for (int64_t i = 0; i < line.size(); ++i) {
      const int64_t duration = line.duration_ps(i);
      result.category_ps[int(category)] += duration;
      const trace::EventMetadata& metadata = plane->event_metadata(line.metadata_id(i));
      const absl::Span<const trace::Stat> stats = line.stats(i);
      const trace::Stat* op = FindStat(stats, metadata, hlo_op);
      const std::string* name = op != nullptr         ? plane->StringValue(*op)
                                : !has_unit_events ? &metadata.name
                                                   : nullptr;
      if (name == nullptr || name->empty()) {
        self_events.push_back({line.start_ps(i), line.end_ps(i), uint8_t(category), 0});
        continue;
      }
      Accumulator& acc = by_name[*name];
      if (acc.owner < 0) acc.owner = owners++;
      self_events.push_back({line.start_ps(i), line.end_ps(i), uint8_t(category), acc.owner});
      if (acc.stats.event_count == 0) {
        acc.stats.name = *name;
        acc.stats.first_start_ps = line.start_ps(i);
        acc.stats.last_end_ps = line.end_ps(i);
      }
      ++acc.stats.event_count;
      acc.stats.total_ps += duration;
      acc.stats.first_start_ps = std::min(acc.stats.first_start_ps, line.start_ps(i));
      acc.stats.last_end_ps = std::max(acc.stats.last_end_ps, line.end_ps(i));
      if (const trace::Stat* f = FindStat(stats, metadata, flops)) acc.stats.flops += f->AsDouble();
      if (const trace::Stat* r = FindStat(stats, metadata, mxu_rate)) {
        acc.peak_rate = std::max(acc.peak_rate, r->AsDouble());
      }
      if (const trace::Stat* b = FindStat(stats, metadata, bytes)) acc.stats.bytes += int64_t(b->AsDouble());
      acc.category_ps[int(category)] += duration;
      acc.intervals.emplace_back(line.start_ps(i), line.end_ps(i));
    }
  }
  result.step_ps = steps_ps > 0 ? steps_ps : (span_end > span_start ? span_end - span_start : 0);
  result.step_count = int64_t(step_windows.size());
  if (step_windows.empty() && span_end > span_start) step_windows.emplace_back(span_start, span_end);
  const SelfTime self = AttributeSelfTime(std::move(self_events), std::move(step_windows), owners);
  result.idle_ps = self.idle_ps;
  result.unattributed_ps = self.owner_ps[0];

  const Roofline& roof = result.roofline;
  for (auto& entry : by_name) {
    Accumulator& acc = entry.second;
    OpStats& op = acc.stats;
    op.wall_ps = UnionLength(acc.intervals);
    op.self_ps = self.owner_ps[size_t(acc.owner)];
    if (result.step_ps > 0) op.step_fraction = double(op.wall_ps) / double(result.step_ps);
    if (op.bytes > 0) op.intensity = op.flops / double(op.bytes);
    if (op.wall_ps > 0) op.achieved_flops_per_second = op.flops / (double(op.wall_ps) * 1e-12);
    const double peak = roof.peak_flops_per_second * acc.peak_rate;
    if (peak > 0) op.peak_fraction = op.achieved_flops_per_second / peak;
    // The category holding most of its time; ties go to the earlier (MXU first).
    int best = int(OpCategory::kOther);
    for (int c = 0; c < kOpCategoryCount; ++c) {
      if (acc.category_ps[c] > acc.category_ps[best]) best = c;
    }
    op.category = OpCategory(best);
    op.on_roofline = op.flops > 0 && op.bytes > 0 && op.wall_ps > 0 &&
                     roof.peak_flops_per_second > 0 && roof.bandwidth_bytes_per_second > 0;
    if (op.on_roofline) {
      op.attainable_flops_per_second = std::min(peak, op.intensity * roof.bandwidth_bytes_per_second);
    }
    result.ops.push_back(std::move(op));
  }
  std::sort(result.ops.begin(), result.ops.end(), [](const OpStats& a, const OpStats& b) {
    if (a.total_ps != b.total_ps) return a.total_ps > b.total_ps;
    return a.name < b.name;
  });
  return result;
}

}  // namespace systolic::analysis
