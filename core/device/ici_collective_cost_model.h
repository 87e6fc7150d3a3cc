// The compiler's collective cost model answered by the slice's ICI
// simulation: the same algorithm, transfers, links and contention that
// TimeModuleCollectives charges when the program is timed, so the
// latency-hiding scheduler plans with the times the timeline will show.
#pragma once

#include <optional>
#include <string>

#include "core/compiler/collective_cost_model.h"
#include "core/device/ici_topology.h"

namespace systolic::device {

class IciCollectiveCostModel : public CollectiveCostModel {
 public:
  // `devices`, when given, are what the program will be timed on; they
  // replace the counts the compiler derives from the module.
  explicit IciCollectiveCostModel(IciTopology topology,
                                  std::optional<SpmdDeviceCounts> devices = std::nullopt)
      : topology_(std::move(topology)), devices_(devices) {}

  std::string name() const override { return "ICI simulation"; }
  absl::StatusOr<double> EstimateSeconds(const HloInstruction& collective,
                                         const SpmdDeviceCounts& devices) const override;

 private:
  IciTopology topology_;
  std::optional<SpmdDeviceCounts> devices_;
};

// The α-β figures of one ICI link of `spec` (bandwidth one way, hop
// latency), for compiling without a slice.
InterconnectParameters InterconnectOf(const ChipSpec& spec);

}  // namespace systolic::device
