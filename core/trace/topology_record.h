// The chips a profile ran on and the ICI links between them: a ring, mesh
// or torus of some shape, with chip coordinates and per-link bandwidth.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::trace {

struct TopologyChip {
  int32_t id = 0;
  std::vector<int32_t> coordinates;  // one per axis
  friend bool operator==(const TopologyChip&, const TopologyChip&) = default;
};

struct TopologyLink {
  int32_t source_chip = 0;
  int32_t target_chip = 0;
  int32_t axis = 0;
  int32_t direction = 1;  // +1 or -1 along the axis
  double bandwidth_bytes_per_second = 0;
  int64_t latency_ps = 0;
  // Traffic over the profile's runs: bytes carried, time carrying a stream.
  int64_t bytes = 0;
  int64_t busy_ps = 0;
  friend bool operator==(const TopologyLink&, const TopologyLink&) = default;
};

struct TopologyRecord {
  std::string shape;               // "2x2x2"
  std::vector<int32_t> dims;       // {2, 2, 2}
  std::vector<bool> wraparound;    // per axis: torus (true) or mesh (false)
  std::vector<TopologyChip> chips;
  std::vector<TopologyLink> links;
  int64_t chip_count() const { return int64_t(chips.size()); }
  friend bool operator==(const TopologyRecord&, const TopologyRecord&) = default;
};

}  // namespace systolic::trace
