#include "core/device/ici_trace.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device/chip_figures.h"

namespace systolic::device {
namespace {

std::string DirectionOf(const IciLink& link) {
  return absl::StrCat(link.direction > 0 ? "+" : "-", AxisName(link.axis));
}

// The lane of a transfer's end: the ICI direction it leaves or arrives in,
// or the data-centre network's own lanes for a message between slices.
std::string LaneOf(const IciLink& link, bool send) {
  if (link.axis == kDcnAxis) return send ? "DCN send" : "DCN receive";
  return absl::StrCat(send ? "ICI send " : "ICI receive ", DirectionOf(link));
}

int64_t SecondsToPs(double seconds) { return int64_t(seconds * 1e12); }

// The timeline's plane of each device that has one, by device.
std::vector<int32_t> PlaneOfDevice(const trace::Timeline& timeline, int64_t devices) {
  std::vector<int32_t> plane(size_t(devices), -1);
  for (int64_t d = 0; d < devices; ++d) {
    if (const trace::TimelinePlane* p = timeline.FindChipPlane(int32_t(d))) plane[d] = p->id();
  }
  return plane;
}

}  // namespace

trace::TopologyRecord TopologyRecordOf(const IciTopology& topology, const ChipSpec& spec) {
  trace::TopologyRecord record;
  record.shape = topology.ShapeString();
  int axes = 3;
  while (axes > 1 && topology.bounds()[axes - 1] == 1) --axes;
  for (int axis = 0; axis < axes; ++axis) {
    record.dims.push_back(int32_t(topology.bounds()[axis]));
    record.wraparound.push_back(topology.wraps(axis));
  }
  // Several slices lie side by side along one more axis (or, for 3D
  // slices, one after another along z); no ICI link wraps across them.
  const bool slice_axis = topology.slices() > 1 && axes < 3;
  if (slice_axis) {
    record.dims.push_back(int32_t(topology.slices()));
    record.wraparound.push_back(false);
  } else if (topology.slices() > 1) {
    record.dims.back() *= int32_t(topology.slices());
    record.wraparound.back() = false;
  }
  for (int64_t chip = 0; chip < topology.chip_count(); ++chip) {
    const ChipCoordinates c = topology.Coordinates(chip);
    std::vector<int32_t> coordinates(c.begin(), c.begin() + axes);
    const int32_t slice = int32_t(topology.SliceOf(chip));
    if (slice_axis) {
      coordinates.push_back(slice);
    } else if (topology.slices() > 1) {
      coordinates.back() += slice * int32_t(topology.bounds()[axes - 1]);
    }
    record.chips.push_back({int32_t(chip), std::move(coordinates)});
  }
  for (const IciLink& link : topology.links()) {
    record.links.push_back({int32_t(link.source_chip), int32_t(link.target_chip), link.axis,
                            link.direction, link.bytes_per_second,
                            SecondsToPs(link.hop_latency_seconds)});
  }
  return record;
}

void AddLinkTraffic(const SliceTiming& timing, int64_t steps, trace::TopologyRecord& record) {
  for (const CollectiveTiming& collective : timing.collectives) {
    const IciSimulation& sim = collective.simulation;
    for (size_t link = 0; link < record.links.size(); ++link) {
      if (link < sim.link_bytes.size()) record.links[link].bytes += steps * sim.link_bytes[link];
      if (link < sim.link_busy_seconds.size()) {
        record.links[link].busy_ps += steps * SecondsToPs(sim.link_busy_seconds[link]);
      }
    }
  }
}

void AddIciTransfers(const Slice& slice, const SliceTiming& timing, trace::Timeline& timeline) {
  const std::vector<int32_t> plane_of = PlaneOfDevice(timeline, timing.device_count());
  auto shown = [&](int64_t chip) {
    return chip >= 0 && chip < int64_t(plane_of.size()) && plane_of[size_t(chip)] >= 0;
  };
  const std::vector<IciLink>& links = slice.topology.links();
  uint64_t flow_id = timeline.flows().size();
  for (const CollectiveTiming& collective : timing.collectives) {
    const int64_t start_cycle = timing.StartCycleOf(collective.instruction);
    if (start_cycle < 0) continue;  // not in the entry computation's program
    const int64_t base_ps = CyclesToPs(slice.spec, start_cycle);
    for (size_t i = 0; i < collective.transfers.size(); ++i) {
      const IciTransfer& transfer = collective.transfers[i];
      const IciTransferTiming& t = collective.simulation.transfers[i];
      if (t.links.empty() || !shown(transfer.source_chip) || !shown(transfer.target_chip)) {
        continue;
      }
      std::vector<std::string> route;
      for (int link : t.links) route.push_back(slice.topology.LinkName(link));
      const int64_t end_ps = base_ps + SecondsToPs(t.end_seconds);
      // One end of the transfer: an event on the lane of the direction it
      // leaves or arrives in, named by its collective.
      auto add_end = [&](int64_t chip, const std::string& lane, int64_t start_ps,
                         const char* peer_stat, int64_t peer,
                         std::vector<trace::Stat> more) -> trace::EventRef {
        trace::TimelinePlane& plane = timeline.mutable_plane(plane_of[size_t(chip)]);
        trace::TimelineLine& line = plane.GetOrAddLine(lane, trace::LaneKind::kIci);
        std::vector<trace::Stat> stats = {plane.MakeStringStat("hlo_op", collective.instruction),
                                          plane.MakeStringStat("long_name", transfer.name),
                                          plane.MakeIntStat("bytes", transfer.bytes),
                                          plane.MakeIntStat(peer_stat, peer)};
        for (trace::Stat& stat : more) stats.push_back(std::move(stat));
        const int64_t event = plane.AddEvent(line.id(), collective.instruction, start_ps,
                                             end_ps - start_ps, stats);
        return {plane.id(), line.id(), event};
      };
      trace::TimelinePlane& sender = timeline.mutable_plane(plane_of[transfer.source_chip]);
      const trace::EventRef send = add_end(
          transfer.source_chip, LaneOf(links[t.links.front()], /*send=*/true),
          base_ps + SecondsToPs(t.start_seconds), "to_chip", transfer.target_chip,
          {sender.MakeStringStat("route", absl::StrJoin(route, ", "))});
      const trace::EventRef receive = add_end(
          transfer.target_chip, LaneOf(links[t.links.back()], /*send=*/false),
          base_ps + SecondsToPs(t.stream_seconds), "from_chip", transfer.source_chip, {});
      timeline.AddFlow({++flow_id, transfer.name, "ici", send, receive, transfer.bytes});
    }
  }
}

}  // namespace systolic::device
