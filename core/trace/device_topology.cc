#include "core/trace/device_topology.h"

#include "absl/strings/str_join.h"

namespace systolic::trace {

TopologyRecord TopologyForDevices(int64_t device_count) {
  TopologyRecord topology;
  if (device_count <= 0) return topology;
  int64_t y = 1;
  for (int64_t f = 1; f * f <= device_count; ++f) {
    if (device_count % f == 0) y = f;
  }
  const int32_t x_size = int32_t(device_count / y), y_size = int32_t(y);
  topology.dims = y_size > 1 ? std::vector<int32_t>{x_size, y_size} : std::vector<int32_t>{x_size};
  topology.shape = absl::StrJoin(topology.dims, "x");
  for (int32_t d : topology.dims) topology.wraparound.push_back(d > 2);
  for (int32_t id = 0; id < int32_t(device_count); ++id) {
    TopologyChip chip{id, {id % x_size}};
    if (y_size > 1) chip.coordinates.push_back(id / x_size);
    topology.chips.push_back(chip);
  }
  for (const TopologyChip& chip : topology.chips) {
    for (int32_t axis = 0; axis < int32_t(topology.dims.size()); ++axis) {
      const int32_t size = topology.dims[size_t(axis)];
      for (int32_t direction : {1, -1}) {
        int32_t c = chip.coordinates[size_t(axis)] + direction;
        if (c < 0 || c >= size) {
          if (!topology.wraparound[size_t(axis)]) continue;
          c = (c + size) % size;
        }
        std::vector<int32_t> at = chip.coordinates;
        at[size_t(axis)] = c;
        const int32_t target = at[0] + (at.size() > 1 ? at[1] * x_size : 0);
        if (target == chip.id) continue;
        topology.links.push_back({chip.id, target, axis, direction, 0, 0});
      }
    }
  }
  return topology;
}

}  // namespace systolic::trace
