#include "core/trace/xspace_importer.h"

#include <fstream>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/quiet_proto_parse.h"
#include "core/hlo/status_macros.h"
#include "core/trace/xplane.pb.h"

namespace systolic::trace {
namespace {

enum class PlaneRole { kDevice, kHost, kSkip };

PlaneRole RoleOf(absl::string_view name) {
  if (absl::StartsWith(name, "/device:")) return PlaneRole::kDevice;
  // "/host:metadata" holds serialised HLO protos, not a timeline.
  if (absl::StartsWith(name, "/host:") && name != "/host:metadata") return PlaneRole::kHost;
  return PlaneRole::kSkip;
}

// The device ordinal at the end of "/device:TPU:3", or -1.
int32_t DeviceOrdinal(absl::string_view name) {
  const size_t colon = name.rfind(':');
  int32_t ordinal;
  if (colon == absl::string_view::npos || !absl::SimpleAtoi(name.substr(colon + 1), &ordinal) ||
      ordinal < 0) {
    return -1;
  }
  return ordinal;
}

// Lane kinds from the names profilers give their lines.
LaneKind KindOf(absl::string_view line_name, PlaneRole role) {
  const std::string name = absl::AsciiStrToLower(line_name);
  if (absl::StrContains(name, "xla ops") || absl::StrContains(name, "stream")) return LaneKind::kOps;
  if (absl::StrContains(name, "xla modules")) return LaneKind::kModules;
  if (absl::StrContains(name, "steps")) return LaneKind::kSteps;
  if (absl::StrContains(name, "mxu")) return LaneKind::kMxu;
  if (absl::StrContains(name, "dma")) return LaneKind::kDma;
  if (absl::StrContains(name, "ici")) return LaneKind::kIci;
  if (absl::StrContains(name, "vector")) return LaneKind::kVector;
  return role == PlaneRole::kHost ? LaneKind::kHost : LaneKind::kOther;
}

// "core 1 / ..." names a core; otherwise the core is unknown.
int32_t CoreOf(absl::string_view line_name) {
  int32_t core;
  if (absl::ConsumePrefix(&line_name, "core ")) {
    const size_t end = line_name.find_first_not_of("0123456789");
    if (absl::SimpleAtoi(line_name.substr(0, end), &core)) return core;
  }
  return -1;
}

class Importer {
 public:
  Importer(const xspace::XSpace& space, XSpaceImportReport* report)
      : space_(space), report_(*report) {}

  absl::StatusOr<Profile> Run() {
    profile_.info.producer = "XSpace import";
    if (space_.hostnames_size() > 0) profile_.info.hostname = space_.hostnames(0);
    for (const std::string& e : space_.errors()) Warn(absl::StrCat("profiler error: ", e));
    for (const std::string& w : space_.warnings()) Warn(absl::StrCat("profiler warning: ", w));

    // Event times are kept relative to the earliest line of the space.
    bool any_line = false;
    int64_t origin_ns = 0;
    for (const xspace::XPlane& plane : space_.planes()) {
      if (RoleOf(plane.name()) == PlaneRole::kSkip) continue;
      for (const xspace::XLine& line : plane.lines()) {
        if (line.events_size() == 0) continue;
        origin_ns = any_line ? std::min(origin_ns, line.timestamp_ns()) : line.timestamp_ns();
        any_line = true;
      }
    }
    origin_ns_ = origin_ns;
    profile_.timeline.set_origin_unix_ns(origin_ns);

    // Devices first, in ordinal order, so chip planes come before the host.
    std::vector<const xspace::XPlane*> devices, hosts;
    for (const xspace::XPlane& plane : space_.planes()) {
      switch (RoleOf(plane.name())) {
        case PlaneRole::kDevice: devices.push_back(&plane); break;
        case PlaneRole::kHost: hosts.push_back(&plane); break;
        case PlaneRole::kSkip: report_.skipped_planes.push_back(plane.name()); break;
      }
    }
    std::stable_sort(devices.begin(), devices.end(), [](const auto* a, const auto* b) {
      return DeviceOrdinal(a->name()) < DeviceOrdinal(b->name());
    });
    int32_t next_chip = 0;
    for (const xspace::XPlane* plane : devices) {
      int32_t chip = DeviceOrdinal(plane->name());
      if (chip < next_chip) chip = next_chip;  // unnumbered or repeated ordinals
      next_chip = chip + 1;
      SYSTOLIC_RETURN_IF_ERROR(ImportPlane(*plane, PlaneRole::kDevice, chip));
      ++report_.device_planes;
    }
    for (const xspace::XPlane* plane : hosts) {
      SYSTOLIC_RETURN_IF_ERROR(ImportPlane(*plane, PlaneRole::kHost, -1));
      ++report_.host_planes;
    }
    if (report_.aggregated_events_skipped > 0) {
      Warn(absl::StrCat("skipped ", report_.aggregated_events_skipped,
                        " aggregated events (a count instead of a time)"));
    }
    profile_.timeline.Finalize();
    profile_.topology.chips.clear();
    for (const TimelinePlane& plane : profile_.timeline.planes()) {
      if (plane.kind() == PlaneKind::kDevice) profile_.topology.chips.push_back({plane.chip_id(), {}});
    }
    return std::move(profile_);
  }

 private:
  void Warn(std::string message) {
    profile_.info.notes.push_back(message);
    report_.warnings.push_back(std::move(message));
  }

  // The name of an XStatMetadata id, interned in `plane`.
  int32_t StatName(const xspace::XPlane& in, TimelinePlane& plane, int64_t id) {
    auto it = in.stat_metadata().find(id);
    if (it != in.stat_metadata().end()) return plane.InternStatName(it->second.name());
    return plane.InternStatName(absl::StrCat("stat#", id));
  }

  // False when the stat carries nothing this model keeps (bytes, no value).
  bool ConvertStat(const xspace::XPlane& in, TimelinePlane& plane, const xspace::XStat& stat,
                   Stat* out) {
    switch (stat.value_case()) {
      case xspace::XStat::kDoubleValue:
        *out = Stat::Double(StatName(in, plane, stat.metadata_id()), stat.double_value());
        return true;
      case xspace::XStat::kUint64Value:
        *out = Stat::Uint64(StatName(in, plane, stat.metadata_id()), stat.uint64_value());
        return true;
      case xspace::XStat::kInt64Value:
        *out = Stat::Int64(StatName(in, plane, stat.metadata_id()), stat.int64_value());
        return true;
      case xspace::XStat::kStrValue:
        *out = Stat::StringRef(StatName(in, plane, stat.metadata_id()),
                               plane.InternString(stat.str_value()));
        return true;
      case xspace::XStat::kRefValue: {
        // The string is the name of another stat metadata entry.
        auto it = in.stat_metadata().find(int64_t(stat.ref_value()));
        const std::string value = it != in.stat_metadata().end()
                                      ? it->second.name()
                                      : absl::StrCat("ref#", stat.ref_value());
        *out = Stat::StringRef(StatName(in, plane, stat.metadata_id()), plane.InternString(value));
        return true;
      }
      case xspace::XStat::kBytesValue:
      case xspace::XStat::VALUE_NOT_SET:
        return false;
    }
    return false;
  }

  std::vector<Stat> ConvertStats(const xspace::XPlane& in, TimelinePlane& plane,
                                 const google::protobuf::RepeatedPtrField<xspace::XStat>& stats) {
    std::vector<Stat> out;
    out.reserve(stats.size());
    for (const xspace::XStat& stat : stats) {
      Stat converted;
      if (ConvertStat(in, plane, stat, &converted)) out.push_back(converted);
    }
    return out;
  }

  absl::Status ImportPlane(const xspace::XPlane& in, PlaneRole role, int32_t chip) {
    TimelinePlane& plane = profile_.timeline.AddPlane(
        in.name(), role == PlaneRole::kHost ? PlaneKind::kHost : PlaneKind::kDevice, chip);
    plane.mutable_stats() = ConvertStats(in, plane, in.stats());

    // XPlane metadata ids are sparse; ours are dense, in id order.
    std::vector<int64_t> ids;
    ids.reserve(in.event_metadata_size());
    for (const auto& [id, m] : in.event_metadata()) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    absl::flat_hash_map<int64_t, int32_t> metadata;
    for (int64_t id : ids) {
      const xspace::XEventMetadata& m = in.event_metadata().at(id);
      metadata[id] = plane.AddEventMetadata(
          {m.name(), m.display_name() == m.name() ? "" : m.display_name(),
           ConvertStats(in, plane, m.stats())});
    }

    for (const xspace::XLine& xline : in.lines()) {
      const std::string& name = xline.display_name().empty() ? xline.name() : xline.display_name();
      TimelineLine& line = plane.AddLine(name, KindOf(name, role), CoreOf(name), -1);
      line.Reserve(xline.events_size());
      int64_t base_ps;
      if (__builtin_mul_overflow(xline.timestamp_ns() - origin_ns_, int64_t(1000), &base_ps)) {
        Warn(absl::StrCat(in.name(), " / ", name, ": line start out of range; lane left empty"));
        continue;
      }
      int64_t clamped = 0;
      for (const xspace::XEvent& event : xline.events()) {
        if (event.data_case() == xspace::XEvent::kNumOccurrences) {
          ++report_.aggregated_events_skipped;
          continue;
        }
        auto it = metadata.find(event.metadata_id());
        int32_t metadata_id;
        if (it != metadata.end()) {
          metadata_id = it->second;
        } else {
          metadata_id = plane.AddEventMetadata({absl::StrCat("event#", event.metadata_id()), "", {}});
          metadata[event.metadata_id()] = metadata_id;
        }
        int64_t start;
        int64_t duration = event.duration_ps();
        if (duration < 0) {
          duration = 0;
          ++clamped;
        }
        int64_t end;
        if (__builtin_add_overflow(base_ps, event.offset_ps(), &start) ||
            __builtin_add_overflow(start, duration, &end)) {
          ++clamped;
          continue;
        }
        const std::vector<Stat> stats = ConvertStats(in, plane, event.stats());
        line.Append(start, duration, metadata_id, stats);
        ++report_.events;
      }
      if (clamped > 0) {
        Warn(absl::StrCat(in.name(), " / ", name, ": ", clamped,
                          " events with negative or out-of-range times were fixed or dropped"));
      }
    }
    return absl::OkStatus();
  }

  const xspace::XSpace& space_;
  XSpaceImportReport& report_;
  Profile profile_;
  int64_t origin_ns_ = 0;
};

}  // namespace

absl::StatusOr<Profile> ImportXSpace(const xspace::XSpace& space, XSpaceImportReport* report) {
  XSpaceImportReport local;
  if (report == nullptr) report = &local;
  *report = XSpaceImportReport{};
  return Importer(space, report).Run();
}

absl::Status ParseXSpace(absl::string_view bytes, xspace::XSpace* space) {
  if (!ParseProtoQuietly(bytes, space)) {
    return absl::InvalidArgumentError(
        "not an XSpace: the bytes do not parse as a tensorflow.profiler.XSpace message");
  }
  return absl::OkStatus();
}

absl::Status ReadXSpaceFile(const std::string& path, xspace::XSpace* space) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  absl::Status parsed = ParseXSpace(bytes.str(), space);
  if (!parsed.ok()) return absl::Status(parsed.code(), absl::StrCat(path, ": ", parsed.message()));
  return absl::OkStatus();
}

absl::StatusOr<Profile> ImportXSpace(absl::string_view bytes, XSpaceImportReport* report) {
  xspace::XSpace space;
  SYSTOLIC_RETURN_IF_ERROR(ParseXSpace(bytes, &space));
  return ImportXSpace(space, report);
}

absl::StatusOr<Profile> ImportXSpaceFile(const std::string& path, XSpaceImportReport* report) {
  xspace::XSpace space;
  SYSTOLIC_RETURN_IF_ERROR(ReadXSpaceFile(path, &space));
  return ImportXSpace(space, report);
}

}  // namespace systolic::trace
