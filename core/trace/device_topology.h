// A topology for a program that names its device count but ran nowhere
// yet (a program file with num_partitions=8): the most nearly square 2D
// torus of that many chips, so the sharding view can draw it.
#pragma once

#include <cstdint>

#include "core/trace/topology_record.h"

namespace systolic::trace {

// 1 chip: a single chip; primes: a ring; otherwise X x Y with X >= Y.
// Axes longer than 2 wrap around; every chip links to its neighbours both ways.
TopologyRecord TopologyForDevices(int64_t device_count);

}  // namespace systolic::trace
