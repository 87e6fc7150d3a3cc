// Transfers between chips over the ICI links, simulated event by event. A
// transfer starts when the transfers it waits for have ended, spends the
// per-hop latency of each link on its route, then streams its bytes over the
// whole route at once (cut-through) at the smallest share it gets of any of
// its links: a link carrying k streams gives each 1/k of its bandwidth. So
// link contention between concurrent transfers is an outcome of the run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/ici_topology.h"

namespace systolic::device {

struct IciTransfer {
  std::string name;  // "all-reduce step 2: chip 1 -> 2"
  int64_t source_chip = 0;
  int64_t target_chip = 0;
  int64_t bytes = 0;
  std::vector<int> after;  // transfers (by index) that must end first
};

struct IciTransferTiming {
  double start_seconds = 0;   // dependencies met
  double stream_seconds = 0;  // latency paid, bytes start to flow
  double end_seconds = 0;
  std::vector<int> links;     // the route
};

struct IciSimulation {
  double seconds = 0;  // when the last transfer ended
  std::vector<IciTransferTiming> transfers;
  std::vector<double> link_busy_seconds;  // per link, time carrying a stream
  std::vector<int64_t> link_bytes;        // per link
};

// Errors: a transfer naming a chip outside the topology, negative bytes, or
// a dependency that is not an earlier transfer.
absl::StatusOr<IciSimulation> SimulateIciTransfers(const IciTopology& topology,
                                                   const std::vector<IciTransfer>& transfers);

}  // namespace systolic::device
