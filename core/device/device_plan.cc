#include "core/device/device_plan.h"

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/spmd_partitioner.h"

namespace systolic::device {

absl::StatusOr<SpmdDeviceCounts> DeviceCountsFor(const HloModule& module,
                                                 const DeviceRequest& request) {
  SpmdDeviceCounts counts = RequiredDeviceCounts(module);
  if (request.replicas) counts.replicas = *request.replicas;
  if (request.partitions) counts.partitions = *request.partitions;
  if (counts.replicas < 1 || counts.partitions < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("replicas and partitions must be positive (", counts.replicas, " x ",
                     counts.partitions, ")"));
  }
  // A sharded module that names no partition count spreads over the slice.
  if (request.topology && !request.partitions && counts.partitions == 1) {
    const int64_t chips = request.topology->topology.chip_count() / counts.replicas;
    if (chips > 1 && SpmdPartitioner::NeedsPartitioning(module, chips)) counts.partitions = chips;
  }
  if (request.topology) {
    const int64_t chips = request.topology->topology.chip_count();
    if (counts.replicas * counts.partitions > chips) {
      return absl::InvalidArgumentError(absl::StrCat(
          module.name(), ": ", counts.replicas * counts.partitions, " devices (", counts.replicas,
          " replicas x ", counts.partitions, " partitions) do not fit on ",
          request.topology->Name(), " (", chips, " chips)"));
    }
  }
  return counts;
}

absl::StatusOr<DevicePlan> PlanDevices(const HloModule& module, const ChipSpec& chip,
                                       const DeviceRequest& request) {
  DevicePlan plan;
  absl::StatusOr<SpmdDeviceCounts> counts = DeviceCountsFor(module, request);
  if (!counts.ok()) return counts.status();
  plan.counts = *counts;
  if (request.topology) {
    plan.slice = request.topology;
  } else if (plan.devices() > 1) {
    absl::StatusOr<Slice> fitted = SliceForDevices(chip, plan.devices());
    if (!fitted.ok()) return fitted.status();
    plan.slice = *std::move(fitted);
  }
  return plan;
}

}  // namespace systolic::device
