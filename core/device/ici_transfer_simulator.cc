#include "core/device/ici_transfer_simulator.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"

namespace systolic::device {
namespace {

enum class Phase { kWaiting, kLatency, kStreaming, kDone };

struct State {
  Phase phase = Phase::kWaiting;
  int pending = 0;          // dependencies not yet ended
  double remaining = 0;     // bytes still to stream
  double rate = 0;          // bytes per second while streaming
};

absl::Status CheckTransfers(const IciTopology& topology,
                            const std::vector<IciTransfer>& transfers) {
  for (size_t i = 0; i < transfers.size(); ++i) {
    const IciTransfer& t = transfers[i];
    auto where = [&] { return absl::StrCat("transfer ", i, " (", t.name, "): "); };
    if (t.source_chip < 0 || t.source_chip >= topology.chip_count() || t.target_chip < 0 ||
        t.target_chip >= topology.chip_count()) {
      return absl::InvalidArgumentError(absl::StrCat(where(), "chip ", t.source_chip, " -> ",
                                                     t.target_chip, " is outside the ",
                                                     topology.chip_count(), "-chip topology"));
    }
    if (t.bytes < 0) return absl::InvalidArgumentError(absl::StrCat(where(), "negative bytes"));
    for (int d : t.after) {
      if (d < 0 || size_t(d) >= i) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), "waits for transfer ", d, ", which is not an earlier one"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<IciSimulation> SimulateIciTransfers(const IciTopology& topology,
                                                   const std::vector<IciTransfer>& transfers) {
  if (absl::Status s = CheckTransfers(topology, transfers); !s.ok()) return s;
  const size_t n = transfers.size();
  IciSimulation sim;
  sim.transfers.resize(n);
  sim.link_busy_seconds.assign(topology.links().size(), 0);
  sim.link_bytes.assign(topology.links().size(), 0);

  std::vector<State> state(n);
  std::vector<std::vector<int>> dependents(n);
  for (size_t i = 0; i < n; ++i) {
    sim.transfers[i].links = topology.Route(transfers[i].source_chip, transfers[i].target_chip);
    state[i].pending = int(transfers[i].after.size());
    state[i].remaining = double(transfers[i].bytes);
    for (int d : transfers[i].after) dependents[size_t(d)].push_back(int(i));
    for (int link : sim.transfers[i].links) sim.link_bytes[size_t(link)] += transfers[i].bytes;
  }

  double now = 0;
  std::vector<size_t> live;  // in latency or streaming
  auto begin = [&](size_t i) {
    live.push_back(i);
    IciTransferTiming& timing = sim.transfers[i];
    timing.start_seconds = now;
    double latency = 0;
    for (int link : timing.links) latency += topology.links()[size_t(link)].hop_latency_seconds;
    timing.stream_seconds = now + latency;
    state[i].phase = Phase::kLatency;
  };
  for (size_t i = 0; i < n; ++i) {
    if (state[i].pending == 0) begin(i);
  }

  std::vector<int> active_on_link(topology.links().size(), 0);
  size_t done = 0;
  while (done < n) {
    // Streams begin whose latency has passed; transfers with nothing to
    // stream (no bytes, or to their own chip) end there.
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t k = 0; k < live.size(); ++k) {
        const size_t i = live[k];
        if (state[i].phase != Phase::kLatency || sim.transfers[i].stream_seconds > now) continue;
        changed = true;
        if (state[i].remaining <= 0 || sim.transfers[i].links.empty()) {
          state[i].phase = Phase::kDone;
          sim.transfers[i].end_seconds = now;
          ++done;
          for (int d : dependents[i]) {
            if (--state[size_t(d)].pending == 0) begin(size_t(d));
          }
          continue;
        }
        state[i].phase = Phase::kStreaming;
        for (int link : sim.transfers[i].links) ++active_on_link[size_t(link)];
      }
    }
    if (done == n) break;
    std::erase_if(live, [&](size_t i) { return state[i].phase == Phase::kDone; });

    // Each stream's rate: its smallest share of a link on its route.
    double next = std::numeric_limits<double>::infinity();
    for (size_t i : live) {
      if (state[i].phase == Phase::kLatency) next = std::min(next, sim.transfers[i].stream_seconds);
      if (state[i].phase != Phase::kStreaming) continue;
      double rate = std::numeric_limits<double>::infinity();
      for (int link : sim.transfers[i].links) {
        rate = std::min(rate, topology.links()[size_t(link)].bytes_per_second /
                                  double(active_on_link[size_t(link)]));
      }
      state[i].rate = rate;
      next = std::min(next, now + state[i].remaining / rate);
    }
    if (!(next < std::numeric_limits<double>::infinity())) {
      return absl::InternalError("ICI simulation stalled with transfers left");
    }
    const double dt = next - now;
    for (size_t link = 0; link < active_on_link.size(); ++link) {
      if (active_on_link[link] > 0) sim.link_busy_seconds[link] += dt;
    }
    now = next;
    const std::vector<size_t> streaming = live;  // `begin` below may append
    for (size_t i : streaming) {
      if (state[i].phase != Phase::kStreaming) continue;
      state[i].remaining -= state[i].rate * dt;
      // Rounding leaves crumbs of a byte; they end with the stream.
      if (state[i].remaining > 1e-6 * std::max(1.0, double(transfers[i].bytes)) &&
          now + state[i].remaining / state[i].rate > now) {
        continue;
      }
      state[i].phase = Phase::kDone;
      sim.transfers[i].end_seconds = now;
      ++done;
      for (int link : sim.transfers[i].links) --active_on_link[size_t(link)];
      for (int d : dependents[i]) {
        if (--state[size_t(d)].pending == 0) begin(size_t(d));
      }
    }
  }
  for (const IciTransferTiming& t : sim.transfers) sim.seconds = std::max(sim.seconds, t.end_seconds);
  return sim;
}

}  // namespace systolic::device
