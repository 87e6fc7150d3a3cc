#include "core/device/ici_collectives.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace systolic::device {
namespace {

// Builds ring collectives phase by phase. In a phase, each ring passes
// `steps` chunks to its successor, every send waiting for the chunk received
// in the step before; a chip's first send in a phase waits for everything it
// received in the last step of the phase before (a torus all-reduce works
// along x, then y, then z).
class RingPhases {
 public:
  explicit RingPhases(int64_t chips) : ready_after_(size_t(chips)) {}

  void AddPhase(const std::vector<std::vector<int64_t>>& rings, int64_t chunk, int64_t steps,
                absl::string_view what) {
    std::vector<std::vector<int>> next_ready(ready_after_.size());
    for (const std::vector<int64_t>& ring : rings) {
      const int64_t n = int64_t(ring.size());
      if (n < 2 || steps < 1) continue;
      // The transfer that last delivered into ring position i (-1: none yet).
      std::vector<int> last_into(size_t(n), -1);
      for (int64_t s = 0; s < steps; ++s) {
        std::vector<int> delivered(size_t(n), -1);
        for (int64_t i = 0; i < n; ++i) {
          IciTransfer t;
          t.source_chip = ring[size_t(i)];
          t.target_chip = ring[size_t((i + 1) % n)];
          t.bytes = chunk;
          t.name =
              absl::StrCat(what, " step ", s, ": chip ", t.source_chip, " -> ", t.target_chip);
          if (s == 0) {
            t.after = ready_after_[size_t(t.source_chip)];
          } else {
            t.after.push_back(last_into[size_t(i)]);
          }
          delivered[size_t((i + 1) % n)] = int(transfers_.size());
          transfers_.push_back(std::move(t));
        }
        last_into = std::move(delivered);
      }
      for (int64_t i = 0; i < n; ++i) next_ready[size_t(ring[size_t(i)])].push_back(last_into[size_t(i)]);
    }
    // Chips in no ring of this phase keep waiting for what they waited for.
    for (size_t chip = 0; chip < next_ready.size(); ++chip) {
      if (!next_ready[chip].empty()) ready_after_[chip] = std::move(next_ready[chip]);
    }
  }

  std::vector<IciTransfer> Take() { return std::move(transfers_); }

 private:
  std::vector<IciTransfer> transfers_;
  std::vector<std::vector<int>> ready_after_;
};

// The rings of a torus axis: one per line of chips along it, each both ways
// round (a bidirectional ring carries half the data in each direction).
std::vector<std::vector<int64_t>> AxisRings(const IciTopology& topology, int axis) {
  std::vector<std::vector<int64_t>> rings;
  const ChipCoordinates& b = topology.bounds();
  // The first slice's (a multi-slice topology's others are alike).
  for (int64_t chip = 0; chip < topology.chips_per_slice(); ++chip) {
    ChipCoordinates c = topology.Coordinates(chip);
    if (c[axis] != 0) continue;  // one line per starting chip
    std::vector<int64_t> line;
    for (int64_t k = 0; k < b[axis]; ++k) {
      c[axis] = k;
      line.push_back(topology.ChipAt(c));
    }
    rings.push_back(line);
    std::reverse(line.begin(), line.end());
    rings.push_back(std::move(line));
  }
  return rings;
}

int64_t ChunkOf(int64_t bytes, int64_t parts) { return parts > 0 ? (bytes + parts - 1) / parts : 0; }

// Enough chip slots for a ring's ids.
int64_t ChipsSpanned(const std::vector<int64_t>& ring) {
  int64_t most = -1;
  for (int64_t chip : ring) most = std::max(most, chip);
  return most + 1;
}

}  // namespace

absl::StatusOr<IciCollective> ParseIciCollective(absl::string_view name) {
  for (IciCollective c : {IciCollective::kAllReduce, IciCollective::kAllGather,
                          IciCollective::kReduceScatter, IciCollective::kAllToAll,
                          IciCollective::kCollectivePermute}) {
    if (name == IciCollectiveName(c)) return c;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown collective '", name,
      "' (all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute)"));
}

const char* IciCollectiveName(IciCollective collective) {
  switch (collective) {
    case IciCollective::kAllReduce:
      return "all-reduce";
    case IciCollective::kAllGather:
      return "all-gather";
    case IciCollective::kReduceScatter:
      return "reduce-scatter";
    case IciCollective::kAllToAll:
      return "all-to-all";
    case IciCollective::kCollectivePermute:
      return "collective-permute";
  }
  return "?";
}

std::vector<IciTransfer> RingReduceScatter(const std::vector<int64_t>& ring, int64_t bytes) {
  const int64_t n = int64_t(ring.size());
  RingPhases phases(ChipsSpanned(ring));
  phases.AddPhase({ring}, ChunkOf(bytes, n), n - 1, "reduce-scatter");
  return phases.Take();
}

std::vector<IciTransfer> RingAllGather(const std::vector<int64_t>& ring, int64_t bytes) {
  const int64_t n = int64_t(ring.size());
  RingPhases phases(ChipsSpanned(ring));
  phases.AddPhase({ring}, ChunkOf(bytes, n), n - 1, "all-gather");
  return phases.Take();
}

std::vector<IciTransfer> RingAllReduce(const std::vector<int64_t>& ring, int64_t bytes) {
  const int64_t n = int64_t(ring.size());
  RingPhases phases(ChipsSpanned(ring));
  phases.AddPhase({ring}, ChunkOf(bytes, n), n - 1, "all-reduce (reduce-scatter)");
  phases.AddPhase({ring}, ChunkOf(bytes, n), n - 1, "all-reduce (all-gather)");
  return phases.Take();
}

std::vector<IciTransfer> BidirectionalRingCollective(const std::vector<int64_t>& ring,
                                                     IciCollective collective, int64_t bytes) {
  const int64_t n = int64_t(ring.size());
  const std::vector<std::vector<int64_t>> both = {ring, {ring.rbegin(), ring.rend()}};
  const int64_t chunk = ChunkOf(ChunkOf(bytes, 2), n);
  const char* name = IciCollectiveName(collective);
  RingPhases phases(ChipsSpanned(ring));
  if (collective == IciCollective::kAllReduce) {
    phases.AddPhase(both, chunk, n - 1, absl::StrCat(name, " (reduce-scatter, both ways)"));
    phases.AddPhase(both, chunk, n - 1, absl::StrCat(name, " (all-gather, both ways)"));
  } else {
    phases.AddPhase(both, chunk, n - 1, absl::StrCat(name, " (both ways)"));
  }
  return phases.Take();
}

std::vector<IciTransfer> TorusCollective(const IciTopology& topology, IciCollective collective,
                                         int64_t bytes) {
  std::vector<int> axes;
  for (int axis = 0; axis < 3; ++axis) {
    if (topology.bounds()[axis] > 1) axes.push_back(axis);
  }
  RingPhases phases(topology.chip_count());
  const char* name = IciCollectiveName(collective);
  // Reduce-scatter along each axis in turn, each on the shard the axis
  // before left; all-gather retraces the axes backwards.
  int64_t shard = bytes;
  std::vector<int64_t> shard_before(3, bytes);
  if (collective != IciCollective::kAllGather) {
    for (int axis : axes) {
      const int64_t n = topology.bounds()[axis];
      shard_before[axis] = shard;
      // Half the shard each way round; n - 1 chunks of 1/n of that.
      phases.AddPhase(AxisRings(topology, axis), ChunkOf(ChunkOf(shard, 2), n), n - 1,
                      absl::StrCat(name, " (reduce-scatter along ", AxisName(axis), ")"));
      shard = ChunkOf(shard, n);
    }
  } else {
    // The all-gather result is `bytes`; it starts from 1/chips of it.
    for (int axis : axes) {
      shard_before[axis] = shard;
      shard = ChunkOf(shard, topology.bounds()[axis]);
    }
  }
  if (collective != IciCollective::kReduceScatter) {
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
      const int axis = *it;
      const int64_t n = topology.bounds()[axis];
      phases.AddPhase(AxisRings(topology, axis), ChunkOf(ChunkOf(shard_before[axis], 2), n),
                      n - 1, absl::StrCat(name, " (all-gather along ", AxisName(axis), ")"));
    }
  }
  return phases.Take();
}

std::vector<IciTransfer> DirectAllToAll(const std::vector<int64_t>& group, int64_t bytes) {
  std::vector<IciTransfer> out;
  const int64_t chunk = ChunkOf(bytes, int64_t(group.size()));
  for (int64_t source : group) {
    for (int64_t target : group) {
      if (source == target) continue;
      out.push_back({absl::StrCat("all-to-all: chip ", source, " -> ", target), source, target,
                     chunk, {}});
    }
  }
  return out;
}

std::vector<IciTransfer> DirectCollectivePermute(
    const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs, int64_t bytes) {
  std::vector<IciTransfer> out;
  for (const auto& [source, target] : source_target_pairs) {
    out.push_back({absl::StrCat("collective-permute: chip ", source, " -> ", target), source,
                   target, bytes, {}});
  }
  return out;
}

std::vector<int64_t> NeighbourRing(const IciTopology& topology) {
  const ChipCoordinates& b = topology.bounds();
  std::vector<int64_t> ring;
  ring.reserve(size_t(topology.chip_count()));
  for (int64_t z = 0; z < b[2]; ++z) {
    for (int64_t yy = 0; yy < b[1]; ++yy) {
      // Odd planes walk y backwards, odd rows walk x backwards: each step is
      // one hop.
      const int64_t y = z % 2 == 0 ? yy : b[1] - 1 - yy;
      for (int64_t xx = 0; xx < b[0]; ++xx) {
        const bool backwards = ((z * b[1]) + yy) % 2 == 1;
        const int64_t x = backwards ? b[0] - 1 - xx : xx;
        ring.push_back(topology.ChipAt({x, y, z}));
      }
    }
  }
  return ring;
}

absl::StatusOr<IciCollectiveTiming> TimeCollective(const IciTopology& topology,
                                                   IciCollective collective, int64_t bytes) {
  if (bytes < 0) return absl::InvalidArgumentError("a collective of negative bytes");
  const std::vector<int64_t> ring = NeighbourRing(topology);
  std::vector<IciTransfer> transfers;
  switch (collective) {
    case IciCollective::kAllReduce:
    case IciCollective::kAllGather:
    case IciCollective::kReduceScatter:
      transfers = TorusCollective(topology, collective, bytes);
      break;
    case IciCollective::kAllToAll:
      transfers = DirectAllToAll(ring, bytes);
      break;
    case IciCollective::kCollectivePermute: {
      // Every chip to its ring successor, as a pipeline stage shift does.
      std::vector<std::pair<int64_t, int64_t>> pairs;
      if (ring.size() > 1) {
        for (size_t i = 0; i < ring.size(); ++i) pairs.push_back({ring[i], ring[(i + 1) % ring.size()]});
      }
      transfers = DirectCollectivePermute(pairs, bytes);
      break;
    }
  }
  IciCollectiveTiming timing;
  timing.collective = collective;
  timing.bytes = bytes;
  timing.chips = topology.chip_count();
  auto simulation = SimulateIciTransfers(topology, transfers);
  if (!simulation.ok()) return simulation.status();
  timing.simulation = *std::move(simulation);
  return timing;
}

}  // namespace systolic::device
