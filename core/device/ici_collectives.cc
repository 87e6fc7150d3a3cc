#include "core/device/ici_collectives.h"

#include "absl/strings/str_cat.h"

namespace systolic::device {
namespace {

// Ring steps appended to `out`: each step every chip sends one chunk to its
// successor, after receiving the chunk of the step before. With
// `continue_chain`, the first step waits for the last step already in `out`
// (all-reduce's all-gather half follows its reduce-scatter half).
void AppendRingSteps(const std::vector<int64_t>& ring, int64_t chunk, int64_t steps,
                     absl::string_view what, bool continue_chain, std::vector<IciTransfer>* out) {
  const int64_t n = int64_t(ring.size());
  // The index of the transfer that last delivered into ring position i.
  std::vector<int> last_into(size_t(n), -1);
  if (continue_chain && int64_t(out->size()) >= n) {
    // The previous step's transfer from position i delivered into i + 1.
    const int base = int(out->size()) - int(n);
    for (int64_t i = 0; i < n; ++i) last_into[size_t((i + 1) % n)] = base + int(i);
  }
  for (int64_t s = 0; s < steps; ++s) {
    std::vector<int> delivered(size_t(n), -1);
    for (int64_t i = 0; i < n; ++i) {
      IciTransfer t;
      t.source_chip = ring[size_t(i)];
      t.target_chip = ring[size_t((i + 1) % n)];
      t.bytes = chunk;
      t.name = absl::StrCat(what, " step ", s, ": chip ", t.source_chip, " -> ", t.target_chip);
      if (last_into[size_t(i)] >= 0) t.after.push_back(last_into[size_t(i)]);
      delivered[size_t((i + 1) % n)] = int(out->size());
      out->push_back(std::move(t));
    }
    last_into = std::move(delivered);
  }
}

int64_t ChunkOf(int64_t bytes, int64_t parts) { return parts > 0 ? (bytes + parts - 1) / parts : 0; }

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
  std::vector<IciTransfer> out;
  const int64_t n = int64_t(ring.size());
  if (n > 1) AppendRingSteps(ring, ChunkOf(bytes, n), n - 1, "reduce-scatter", false, &out);
  return out;
}

std::vector<IciTransfer> RingAllGather(const std::vector<int64_t>& ring, int64_t bytes) {
  std::vector<IciTransfer> out;
  const int64_t n = int64_t(ring.size());
  if (n > 1) AppendRingSteps(ring, ChunkOf(bytes, n), n - 1, "all-gather", false, &out);
  return out;
}

std::vector<IciTransfer> RingAllReduce(const std::vector<int64_t>& ring, int64_t bytes) {
  std::vector<IciTransfer> out;
  const int64_t n = int64_t(ring.size());
  if (n <= 1) return out;
  AppendRingSteps(ring, ChunkOf(bytes, n), n - 1, "all-reduce (reduce-scatter)", false, &out);
  AppendRingSteps(ring, ChunkOf(bytes, n), n - 1, "all-reduce (all-gather)", true, &out);
  return out;
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
      transfers = RingAllReduce(ring, bytes);
      break;
    case IciCollective::kAllGather:
      transfers = RingAllGather(ring, bytes);
      break;
    case IciCollective::kReduceScatter:
      transfers = RingReduceScatter(ring, bytes);
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
