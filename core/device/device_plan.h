// The one decision of how many devices a program runs on and where, for
// every caller (the CLI's run, compile and eval, the studio's run dialog
// through program_run.h, the runtime's systolic plugin, profiles of steps):
//   - replicas x partitions are the module's (raised to what its collectives
//     name) unless the caller gives either;
//   - a sharded module that names no partition count spreads over the chips
//     of a topology the caller gives;
//   - more than one device runs on a slice: the given topology, else the
//     most nearly square one of the chip that holds them.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "core/device/slice.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

struct DeviceRequest {
  std::optional<int64_t> replicas;    // --replicas
  std::optional<int64_t> partitions;  // --partitions
  std::optional<Slice> topology;      // --topology
};

struct DevicePlan {
  SpmdDeviceCounts counts;
  // Set when the program runs on more than one device or a topology was
  // given; otherwise the program runs on one chip.
  std::optional<Slice> slice;
  int64_t devices() const { return counts.replicas * counts.partitions; }
};

// Replicas and partitions alone (no chip needed). Errors: a count below 1,
// more devices than the given topology has chips.
absl::StatusOr<SpmdDeviceCounts> DeviceCountsFor(const HloModule& module,
                                                 const DeviceRequest& request = {});

// Counts and the slice of `chip` they run on. Errors: those of
// DeviceCountsFor, no slice of the chip holds them.
absl::StatusOr<DevicePlan> PlanDevices(const HloModule& module, const ChipSpec& chip,
                                       const DeviceRequest& request = {});

}  // namespace systolic::device
