#include "core/device/shifted_timeline.h"

#include <vector>

namespace systolic::device {
namespace {

// Stats, stat names, strings and event names of one plane re-interned in
// another; each is looked up once however many events share it.
class PlaneTranslation {
 public:
  PlaneTranslation(const trace::TimelinePlane& from, trace::TimelinePlane& to)
      : from_(from),
        to_(to),
        stat_names_(size_t(from.stat_name_count()), -1),
        strings_(size_t(from.string_count()), -1),
        metadata_(size_t(from.event_metadata_count()), -1) {}

  trace::Stat Stat(trace::Stat stat) {
    int32_t& name = stat_names_[size_t(stat.name_id)];
    if (name < 0) name = to_.InternStatName(from_.stat_name(stat.name_id));
    stat.name_id = name;
    if (stat.kind == trace::StatKind::kString) {
      int64_t& ref = strings_[stat.string_ref];
      if (ref < 0) ref = to_.InternString(from_.string(stat.string_ref));
      stat = trace::Stat::StringRef(name, uint32_t(ref));
    }
    return stat;
  }

  // Valid until the next call (events are copied by the million).
  absl::Span<const trace::Stat> Stats(absl::Span<const trace::Stat> stats) {
    scratch_.clear();
    for (const trace::Stat& s : stats) scratch_.push_back(Stat(s));
    return scratch_;
  }

  int32_t EventName(int32_t id) {
    int32_t& mapped = metadata_[size_t(id)];
    if (mapped >= 0) return mapped;
    const trace::EventMetadata& source = from_.event_metadata(id);
    const int32_t known = to_.event_metadata_count();
    mapped = to_.InternEventName(source.name);
    if (mapped >= known) {  // new in the target: bring what the name shares
      trace::EventMetadata& added = to_.mutable_event_metadata(mapped);
      added.display_name = source.display_name;
      const absl::Span<const trace::Stat> stats = Stats(source.stats);
      added.stats.assign(stats.begin(), stats.end());
    }
    return mapped;
  }

 private:
  const trace::TimelinePlane& from_;
  trace::TimelinePlane& to_;
  std::vector<int32_t> stat_names_;
  std::vector<int64_t> strings_;
  std::vector<int32_t> metadata_;
  std::vector<trace::Stat> scratch_;
};

trace::TimelinePlane& TargetPlane(const trace::TimelinePlane& source, trace::Timeline& into,
                                  bool& added) {
  if (const trace::TimelinePlane* found = into.FindChipPlane(source.chip_id())) {
    added = false;
    return into.mutable_plane(found->id());
  }
  added = true;
  return into.AddPlane(source.name(), source.kind(), source.chip_id());
}

}  // namespace

void AppendShiftedTimeline(const trace::Timeline& run, int64_t offset_ps, trace::Timeline& into) {
  // Where each event of `run` lands: by plane and lane, the target plane and
  // lane and the index of the lane's first copied event.
  std::vector<std::vector<trace::EventRef>> first_copied(size_t(run.plane_count()));
  for (const trace::TimelinePlane& source : run.planes()) {
    bool added = false;
    trace::TimelinePlane& target = TargetPlane(source, into, added);
    PlaneTranslation translate(source, target);
    if (added) {
      const absl::Span<const trace::Stat> stats = translate.Stats(source.stats());
      target.mutable_stats().assign(stats.begin(), stats.end());
    }
    std::vector<trace::EventRef>& firsts = first_copied[size_t(source.id())];
    for (const trace::TimelineLine& line : source.lines()) {
      trace::TimelineLine& to_line =
          target.GetOrAddLine(line.name(), line.kind(), line.core(), line.unit());
      firsts.push_back({target.id(), to_line.id(), to_line.size()});
      to_line.Reserve(to_line.size() + line.size());
      for (int64_t i = 0; i < line.size(); ++i) {
        // The name first: a new name's shared stats pass through the same scratch.
        const int32_t name = translate.EventName(line.metadata_id(i));
        to_line.Append(line.start_ps(i) + offset_ps, line.duration_ps(i), name,
                       translate.Stats(line.stats(i)));
      }
    }
  }
  auto moved = [&](const trace::EventRef& ref) {
    trace::EventRef to = first_copied[size_t(ref.plane)][size_t(ref.line)];
    to.event += ref.event;
    return to;
  };
  uint64_t next_id = into.flows().size();
  for (const trace::Flow& flow : run.flows()) {
    into.AddFlow({++next_id, flow.name, flow.category, moved(flow.source), moved(flow.target),
                  flow.bytes});
  }
}

}  // namespace systolic::device
