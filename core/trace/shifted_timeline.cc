#include "core/trace/shifted_timeline.h"

#include <vector>

namespace systolic::trace {
namespace {

// Stats, stat names, strings and event names of one plane re-interned in
// another; each is looked up once however many events share it.
class PlaneTranslation {
 public:
  PlaneTranslation(const TimelinePlane& from, TimelinePlane& to)
      : from_(from),
        to_(to),
        stat_names_(size_t(from.stat_name_count()), -1),
        strings_(size_t(from.string_count()), -1),
        metadata_(size_t(from.event_metadata_count()), -1) {}

  Stat Translated(Stat stat) {
    int32_t& name = stat_names_[size_t(stat.name_id)];
    if (name < 0) name = to_.InternStatName(from_.stat_name(stat.name_id));
    stat.name_id = name;
    if (stat.kind == StatKind::kString) stat = Stat::StringRef(name, String(stat.string_ref));
    return stat;
  }

  uint32_t String(uint32_t ref) {
    if (ref == kNoDetail) return ref;
    int64_t& mapped = strings_[ref];
    if (mapped < 0) mapped = to_.InternString(from_.string(ref));
    return uint32_t(mapped);
  }

  // Valid until the next call (events are copied by the million).
  absl::Span<const Stat> Stats(absl::Span<const Stat> stats) {
    scratch_.clear();
    for (const Stat& s : stats) scratch_.push_back(Translated(s));
    return scratch_;
  }

  int32_t EventName(int32_t id) {
    int32_t& mapped = metadata_[size_t(id)];
    if (mapped >= 0) return mapped;
    const EventMetadata& source = from_.event_metadata(id);
    const int32_t known = to_.event_metadata_count();
    mapped = to_.InternEventName(source.name);
    if (mapped >= known) {  // new in the target: bring what the name shares
      EventMetadata& added = to_.mutable_event_metadata(mapped);
      added.display_name = source.display_name;
      const absl::Span<const Stat> stats = Stats(source.stats);
      added.stats.assign(stats.begin(), stats.end());
    }
    return mapped;
  }

 private:
  const TimelinePlane& from_;
  TimelinePlane& to_;
  std::vector<int32_t> stat_names_;
  std::vector<int64_t> strings_;
  std::vector<int32_t> metadata_;
  std::vector<Stat> scratch_;
};

TimelinePlane& TargetPlane(const TimelinePlane& source, Timeline& into,
                                  bool& added) {
  if (const TimelinePlane* found = into.FindChipPlane(source.chip_id())) {
    added = false;
    return into.mutable_plane(found->id());
  }
  added = true;
  return into.AddPlane(source.name(), source.kind(), source.chip_id());
}

}  // namespace

void AppendShiftedTimeline(const Timeline& run, int64_t offset_ps, Timeline& into) {
  // Where each event of `run` lands: by plane and lane, the target plane and
  // lane and the index of the lane's first copied event.
  std::vector<std::vector<EventRef>> first_copied(size_t(run.plane_count()));
  for (const TimelinePlane& source : run.planes()) {
    bool added = false;
    TimelinePlane& target = TargetPlane(source, into, added);
    PlaneTranslation translate(source, target);
    if (added) {
      const absl::Span<const Stat> stats = translate.Stats(source.stats());
      target.mutable_stats().assign(stats.begin(), stats.end());
    }
    std::vector<EventRef>& firsts = first_copied[size_t(source.id())];
    for (const TimelineLine& line : source.lines()) {
      TimelineLine& to_line =
          target.GetOrAddLine(line.name(), line.kind(), line.core(), line.unit());
      firsts.push_back({target.id(), to_line.id(), to_line.size()});
      // Each stat set and name is translated once, however many events share it.
      std::vector<int64_t> sets(size_t(line.stat_set_count()), -1);
      std::vector<uint32_t> set_ids(line.has_event_stats() ? size_t(line.size()) : 0);
      for (size_t i = 0; i < set_ids.size(); ++i) {
        int64_t& mapped = sets[line.stat_set_id(int64_t(i))];
        if (mapped < 0) mapped = to_line.InternStatSet(translate.Stats(line.stat_set(line.stat_set_id(int64_t(i)))));
        set_ids[i] = uint32_t(mapped);
      }
      std::vector<uint32_t> details(line.has_details() ? size_t(line.size()) : 0);
      for (size_t i = 0; i < details.size(); ++i) details[i] = translate.String(line.detail(int64_t(i)));
      std::vector<int32_t> names(size_t(line.size()));
      for (size_t i = 0; i < names.size(); ++i) names[i] = translate.EventName(line.metadata_id(int64_t(i)));
      to_line.AppendColumns(
          line.size(),
          [&](int64_t* starts, int64_t* durations, int32_t* ids) {
            for (int64_t i = 0; i < line.size(); ++i) {
              starts[i] = line.start_ps(i) + offset_ps;
              durations[i] = line.duration_ps(i);
              ids[i] = names[size_t(i)];
            }
            return true;
          },
          set_ids, details);
    }
  }
  auto moved = [&](const EventRef& ref) {
    EventRef to = first_copied[size_t(ref.plane)][size_t(ref.line)];
    to.event += ref.event;
    return to;
  };
  uint64_t next_id = into.flows().size();
  for (const Flow& flow : run.flows()) {
    into.AddFlow({++next_id, flow.name, flow.category, moved(flow.source), moved(flow.target),
                  flow.bytes});
  }
}

}  // namespace systolic::trace
