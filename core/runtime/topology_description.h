// What the chips of a client are and how they are connected: the chip
// (preset or spec), how many chips lie along each axis and whether each
// axis wraps around (a torus). One chip today; multi-chip topologies
// ("v4:2x2x2") fill the same fields, so the API does not change when ICI
// arrives.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace systolic::runtime {

struct TopologyDescription {
  std::string platform_name;  // "cpu", "systolic"
  std::string chip;           // "v4", a spec file's name, or "host"
  std::array<int64_t, 3> bounds = {1, 1, 1};
  std::array<bool, 3> wraparound = {false, false, false};
  int64_t cores_per_chip = 1;

  int64_t num_chips() const { return bounds[0] * bounds[1] * bounds[2]; }
  int64_t num_cores() const { return num_chips() * cores_per_chip; }
  // "v4:2x2x2", "v5e:1x1x1".
  std::string ToString() const;
  friend bool operator==(const TopologyDescription&, const TopologyDescription&) = default;
};

// Coordinates of a chip in a topology.
using ChipCoords = std::array<int64_t, 3>;

// One device (a core of a chip, or the host): the facts the C ABI reports.
struct DeviceDescription {
  int64_t id = 0;
  int64_t process_index = 0;
  std::string kind;          // "cpu", "systolic v4 core"
  std::string debug_string;  // "systolic:0 (v4 chip 0,0,0 core 0)"
  ChipCoords coords = {0, 0, 0};
  int64_t core_on_chip = 0;
  std::string memory_kind = "device";  // of its default memory: "device", "hbm"
};

}  // namespace systolic::runtime
