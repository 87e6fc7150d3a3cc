#include "core/device/ici_collective_cost_model.h"

#include "core/device/chip_figures.h"
#include "core/device/collective_lowering.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {

absl::StatusOr<double> IciCollectiveCostModel::EstimateSeconds(
    const HloInstruction& collective, const SpmdDeviceCounts& devices) const {
  SYSTOLIC_ASSIGN_OR_RETURN(CollectiveTiming timing,
                            TimeCollective(collective, topology_, devices_.value_or(devices)));
  return timing.seconds();
}

InterconnectParameters InterconnectOf(const ChipSpec& spec) {
  InterconnectParameters link;
  const double bytes_per_second = IciBytesPerSecondPerLink(spec);
  if (bytes_per_second > 0) link.link_bytes_per_second = bytes_per_second;
  if (spec.ici().hop_latency_ns() > 0) link.link_latency_seconds = spec.ici().hop_latency_ns() * 1e-9;
  return link;
}

}  // namespace systolic::device
