// What the ICI did on a slice, as profile records: the topology (chips,
// coordinates, links with bandwidth and latency) and every transfer of every
// collective on the lanes of the chips it joins. A transfer is a "send"
// event on its sender's lane for the direction it leaves in and a "receive"
// event on its receiver's lane for the direction it arrives from, with a
// flow from one to the other.
#pragma once

#include <cstdint>

#include "core/device/chip_spec.pb.h"
#include "core/device/ici_topology.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/trace/timeline.h"
#include "core/trace/topology_record.h"

namespace systolic::device {

// Profiles of big slices show this many devices: every device runs the
// same program, and a plane per chip of a 4,096-chip pod helps nobody.
inline constexpr int64_t kMaxChipPlanes = 64;

trace::TopologyRecord TopologyRecordOf(const IciTopology& topology, const ChipSpec& spec);

// Adds each link's traffic over `steps` runs to `record` (made by
// TopologyRecordOf for the same topology: its links in the same order).
void AddLinkTraffic(const SliceTiming& timing, int64_t steps, trace::TopologyRecord& record);

// Adds one run's transfers, from time 0, to the device planes already in
// `timeline` (plane chip_id = device); transfers to or from devices without
// a plane are left out.
void AddIciTransfers(const Slice& slice, const SliceTiming& timing, trace::Timeline& timeline);

}  // namespace systolic::device
