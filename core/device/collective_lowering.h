// The collectives of a multi-device module as ICI transfers on a slice, and
// their simulated time. Device d (XLA's flattened id, replica * partitions +
// partition) runs on chip d; the device counts are the module's, raised to
// what its replica groups name. Every group of a collective runs its ring (in
// group order, both ways round with half the buffer each way) or its direct
// transfers at the same time as the others, so groups that share links slow
// each other down. A group of every chip of the slice runs all-reduce,
// all-gather and reduce-scatter axis by axis (TorusCollective). On several
// slices, groups of the same shape in every slice are timed once (they
// share no link), as are groups of one chip per slice (each uses only its
// own chips' DCN links).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/ici_collectives.h"
#include "core/device/ici_topology.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

struct CollectiveTiming {
  std::string instruction;  // "all-reduce.3"
  std::string computation;  // where it is
  IciCollective collective = IciCollective::kAllReduce;
  int64_t bytes = 0;        // per device (see ici_collectives.h)
  int64_t groups = 0;
  std::vector<IciTransfer> transfers;  // what its algorithm sends
  IciSimulation simulation;            // of the transfers, from time 0
  double seconds() const { return simulation.seconds; }
};

// One collective (or the -start of one) of a module run on `devices`.
// Errors: more devices than chips, groups naming devices the module does not
// have, an instruction that is no collective.
absl::StatusOr<CollectiveTiming> TimeCollective(const HloInstruction& instruction,
                                                const IciTopology& topology,
                                                const SpmdDeviceCounts& devices);

// `devices` defaults to the module's counts raised to what its groups name
// (RequiredDeviceCounts). Errors: more devices than chips, replica groups
// that name devices the module does not have.
absl::StatusOr<std::vector<CollectiveTiming>> TimeModuleCollectives(
    const HloModule& module, const IciTopology& topology,
    std::optional<SpmdDeviceCounts> devices = std::nullopt);

}  // namespace systolic::device
