#include "core/analysis/event_details.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/analysis/time_ruler.h"

namespace systolic::analysis {
namespace {

// Stats merged for one event: its name's, overridden by its own.
std::vector<trace::Stat> EventStats(const trace::TimelinePlane& plane, const trace::TimelineLine& line, int64_t event) {
  std::vector<trace::Stat> stats = plane.event_metadata(line.metadata_id(event)).stats;
  for (const trace::Stat& own : line.stats(event)) {
    auto same = std::find_if(stats.begin(), stats.end(),
                             [&](const trace::Stat& s) { return s.name_id == own.name_id; });
    if (same != stats.end()) {
      *same = own;
    } else {
      stats.push_back(own);
    }
  }
  return stats;
}

const trace::Stat* FindStat(const trace::TimelinePlane& plane, const std::vector<trace::Stat>& stats,
                     std::initializer_list<absl::string_view> names) {
  for (absl::string_view name : names) {
    const int32_t id = plane.FindStatName(name);
    if (id < 0) continue;
    for (const trace::Stat& s : stats) {
      if (s.name_id == id) return &s;
    }
  }
  return nullptr;
}

// 1234567 -> "1.23 M" with `unit` appended.
std::string Si(double value, absl::string_view unit, double base = 1000) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  int i = 0;
  double v = std::fabs(value);
  while (v >= base && i < 6) {
    v /= base;
    ++i;
  }
  if (value < 0) v = -v;
  const char* prefix = base == 1024 ? kBinary[i] : kPrefixes[i];
  if (i == 0) return absl::StrFormat("%.0f %s", value, unit);
  return absl::StrFormat("%.2f %s%s", v, prefix, unit);
}

}  // namespace

double PlaneClockHz(const trace::TimelinePlane& plane) {
  const int32_t id = plane.FindStatName("clock_hz");
  if (id < 0) return 0;
  for (const trace::Stat& s : plane.stats()) {
    if (s.name_id == id) return s.AsDouble();
  }
  return 0;
}

const trace::Stat* FindEventStat(const trace::TimelinePlane& plane, const trace::TimelineLine& line,
                                 int64_t event, absl::string_view name) {
  const int32_t id = plane.FindStatName(name);
  if (id < 0) return nullptr;
  for (const trace::Stat& s : line.stats(event)) {
    if (s.name_id == id) return &s;
  }
  for (const trace::Stat& s : plane.event_metadata(line.metadata_id(event)).stats) {
    if (s.name_id == id) return &s;
  }
  return nullptr;
}

std::string InstructionOfEvent(const trace::Timeline& timeline, const trace::EventRef& ref) {
  if (!timeline.Contains(ref)) return "";
  const trace::TimelinePlane& plane = timeline.plane(ref.plane);
  const trace::TimelineLine& line = plane.line(ref.line);
  const trace::Stat* hlo_op = FindEventStat(plane, line, ref.event, "hlo_op");
  if (hlo_op != nullptr && hlo_op->kind == trace::StatKind::kString) return plane.string(hlo_op->string_ref);
  return plane.event_metadata(line.metadata_id(ref.event)).name;
}

EventDetails DescribeEvent(const trace::Timeline& timeline, const trace::EventRef& ref) {
  EventDetails details;
  if (!timeline.Contains(ref)) return details;
  const trace::TimelinePlane& plane = timeline.plane(ref.plane);
  const trace::TimelineLine& line = plane.line(ref.line);
  const trace::EventMetadata& metadata = plane.event_metadata(line.metadata_id(ref.event));
  details.name = timeline.EventName(ref);
  details.instruction = InstructionOfEvent(timeline, ref);
  details.plane = plane.name();
  details.lane = line.name();
  details.start_ps = line.start_ps(ref.event);
  details.duration_ps = line.duration_ps(ref.event);
  const double clock_hz = PlaneClockHz(plane);

  auto& rows = details.rows;
  rows.push_back({"Event", details.name});
  if (!metadata.display_name.empty() && metadata.display_name != metadata.name) {
    rows.push_back({"Name", metadata.name});
  }
  rows.push_back({"Lane", absl::StrCat(plane.name(), " · ", line.name())});
  rows.push_back({"Start", FormatPs(details.start_ps)});
  std::string duration = FormatPs(details.duration_ps);
  if (clock_hz > 0) absl::StrAppend(&duration, " (", FormatCycles(details.duration_ps, clock_hz), ")");
  rows.push_back({"Duration", duration});
  rows.push_back({"Instruction", details.instruction});
  if (const std::string* detail = plane.DetailOf(line, ref.event)) rows.push_back({"Detail", *detail});

  const std::vector<trace::Stat> stats = EventStats(plane, line, ref.event);
  absl::flat_hash_set<int32_t> shown;
  auto show = [&](const std::string& label, std::initializer_list<absl::string_view> names,
                  auto&& format) {
    const trace::Stat* s = FindStat(plane, stats, names);
    if (!s) return;
    shown.insert(s->name_id);
    rows.push_back({label, format(*s)});
  };
  const double seconds = double(details.duration_ps) * 1e-12;
  auto text = [&](const trace::Stat& s) { return plane.FormatStatValue(s); };
  show("Fusion", {"fusion", "fusion_kind"}, text);
  show("Cycles", {"cycles"}, [&](const trace::Stat& s) {
    return s.kind == trace::StatKind::kString ? text(s) : absl::StrFormat("%.0f", s.AsDouble());
  });
  show("FLOPs", {"flops", "FLOPs"}, [&](const trace::Stat& s) {
    if (s.kind == trace::StatKind::kString) return text(s);
    std::string out = Si(s.AsDouble(), "FLOP");
    if (seconds > 0) absl::StrAppend(&out, " · ", Si(s.AsDouble() / seconds, "FLOP/s"));
    return out;
  });
  show("Bytes", {"bytes", "bytes_accessed", "bytes_transferred"}, [&](const trace::Stat& s) {
    if (s.kind == trace::StatKind::kString) return text(s);
    std::string out = Si(s.AsDouble(), "B", 1024);
    if (seconds > 0) absl::StrAppend(&out, " · ", Si(s.AsDouble() / seconds, "B/s"));
    return out;
  });
  show("Utilisation", {"utilisation", "utilization"}, [&](const trace::Stat& s) {
    if (s.kind == trace::StatKind::kString) return text(s);
    const double v = s.AsDouble();
    if (std::isnan(v)) return std::string("n/a");
    return v <= 1.0 ? absl::StrFormat("%.1f%%", v * 100) : absl::StrFormat("%.3g", v);
  });
  show("op_name", {"op_name", "tf_op"}, text);
  const int32_t hlo_op = plane.FindStatName("hlo_op");
  for (const trace::Stat& s : stats) {
    if (shown.contains(s.name_id) || s.name_id == hlo_op) continue;
    rows.push_back({plane.stat_name(s.name_id), plane.FormatStatValue(s)});
  }
  return details;
}

InstructionEventMatcher::InstructionEventMatcher(const trace::Timeline& timeline,
                                                 const std::vector<std::string>& instructions) {
  absl::flat_hash_set<std::string> names(instructions.begin(), instructions.end());
  if (names.empty()) return;
  planes_.resize(timeline.plane_count());
  for (int32_t p = 0; p < timeline.plane_count(); ++p) {
    const trace::TimelinePlane& plane = timeline.plane(p);
    PlaneMatch& match = planes_[p];
    match.hlo_op_stat = plane.FindStatName("hlo_op");
    for (uint32_t ref = 0; ref < plane.string_count(); ++ref) {
      if (names.contains(plane.string(ref))) match.string_refs.push_back(ref);
    }
    match.names.assign(plane.event_metadata_count(), false);
    for (int32_t id = 0; id < plane.event_metadata_count(); ++id) {
      const trace::EventMetadata& m = plane.event_metadata(id);
      bool hit = names.contains(m.name);
      for (const trace::Stat& s : m.stats) {
        if (hit) break;
        hit = s.name_id == match.hlo_op_stat && s.kind == trace::StatKind::kString &&
              std::find(match.string_refs.begin(), match.string_refs.end(), s.string_ref) !=
                  match.string_refs.end();
      }
      match.names[id] = hit;
      if (hit) empty_ = false;
    }
    if (!match.string_refs.empty() && match.hlo_op_stat >= 0) empty_ = false;
  }
}

bool InstructionEventMatcher::MatchesName(int32_t plane, int32_t metadata_id) const {
  if (plane < 0 || plane >= int32_t(planes_.size())) return false;
  const PlaneMatch& match = planes_[plane];
  return metadata_id >= 0 && metadata_id < int32_t(match.names.size()) && match.names[metadata_id];
}

bool InstructionEventMatcher::Matches(const trace::Timeline& timeline, const trace::EventRef& ref) const {
  if (!timeline.Contains(ref) || ref.plane >= int32_t(planes_.size())) return false;
  const trace::TimelineLine& line = timeline.line(ref);
  const PlaneMatch& match = planes_[ref.plane];
  // An event's own hlo_op overrides its name's.
  if (match.hlo_op_stat >= 0) {
    for (const trace::Stat& s : line.stats(ref.event)) {
      if (s.name_id != match.hlo_op_stat || s.kind != trace::StatKind::kString) continue;
      return std::find(match.string_refs.begin(), match.string_refs.end(), s.string_ref) !=
             match.string_refs.end();
    }
  }
  return MatchesName(ref.plane, line.metadata_id(ref.event));
}

}  // namespace systolic::analysis
