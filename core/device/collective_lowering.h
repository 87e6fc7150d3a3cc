// The collectives of a multi-device module as ICI transfers on a slice, and
// their simulated time. Device d (XLA's flattened id, replica * partitions +
// partition) runs on chip d; the device counts are the module's, raised to
// what its replica groups name. Every group of a collective runs its ring (in
// group order) or its direct transfers at the same time as the others, so
// groups that share links slow each other down.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/ici_collectives.h"
#include "core/device/ici_topology.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

struct CollectiveTiming {
  std::string instruction;  // "all-reduce.3"
  std::string computation;  // where it is
  IciCollective collective = IciCollective::kAllReduce;
  int64_t bytes = 0;        // per device (see ici_collectives.h)
  int64_t groups = 0;
  int64_t transfers = 0;
  double seconds = 0;
};

// Errors: more devices than chips, replica groups that name devices the
// module does not have.
absl::StatusOr<std::vector<CollectiveTiming>> TimeModuleCollectives(const HloModule& module,
                                                                    const IciTopology& topology);

}  // namespace systolic::device
