// The transfers collective algorithms make between chips, for the ICI
// simulator to time. Groups list chips in ring order; `bytes` is each chip's
// buffer (the all-reduce operand, the all-gather result, the reduce-scatter
// operand). Ring algorithms split the buffer into one chunk per chip and
// pass chunks to the ring successor, a step waiting for the chunk received in
// the step before, as XLA's ring all-reduce does:
//   all-reduce      = reduce-scatter then all-gather, 2(n-1) steps;
//   reduce-scatter  = n-1 steps;  all-gather = n-1 steps.
// On a torus the same work goes one axis at a time, over one bidirectional
// ring per line of chips along the axis (half the data each way round):
// all-reduce = reduce-scatter along x, y, z, then all-gather along z, y, x.
// all-to-all sends every other chip its chunk directly; collective-permute
// sends each pair's whole buffer.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/ici_topology.h"
#include "core/device/ici_transfer_simulator.h"

namespace systolic::device {

enum class IciCollective { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kCollectivePermute };

absl::StatusOr<IciCollective> ParseIciCollective(absl::string_view name);
const char* IciCollectiveName(IciCollective collective);

std::vector<IciTransfer> RingReduceScatter(const std::vector<int64_t>& ring, int64_t bytes);
std::vector<IciTransfer> RingAllGather(const std::vector<int64_t>& ring, int64_t bytes);
std::vector<IciTransfer> RingAllReduce(const std::vector<int64_t>& ring, int64_t bytes);
// All-reduce, all-gather or reduce-scatter over `ring` both ways round, half
// the buffer each way (every link carries traffic in both directions, as
// on a torus axis).
std::vector<IciTransfer> BidirectionalRingCollective(const std::vector<int64_t>& ring,
                                                     IciCollective collective, int64_t bytes);
std::vector<IciTransfer> TorusCollective(const IciTopology& topology, IciCollective collective,
                                         int64_t bytes);
std::vector<IciTransfer> DirectAllToAll(const std::vector<int64_t>& group, int64_t bytes);
std::vector<IciTransfer> DirectCollectivePermute(
    const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs, int64_t bytes);

// Every chip of `topology` in a ring that visits neighbours: a snake through
// the axes, so consecutive chips are one hop apart (and, on a torus, the
// last returns to the first in one hop when the first axis is even).
std::vector<int64_t> NeighbourRing(const IciTopology& topology);

// One collective over the whole topology, timed: all-reduce, all-gather and
// reduce-scatter axis by axis on bidirectional rings (TorusCollective).
struct IciCollectiveTiming {
  IciCollective collective;
  int64_t bytes = 0;
  int64_t chips = 0;
  IciSimulation simulation;
  double seconds() const { return simulation.seconds; }
  // Bytes one chip's buffer moves per second of the collective.
  double algorithm_bandwidth() const { return seconds() > 0 ? double(bytes) / seconds() : 0; }
};

absl::StatusOr<IciCollectiveTiming> TimeCollective(const IciTopology& topology,
                                                   IciCollective collective, int64_t bytes);

}  // namespace systolic::device
