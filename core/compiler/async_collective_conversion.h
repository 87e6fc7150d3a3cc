// Splits each synchronous all-reduce, all-gather and collective-permute into
// a -start / -done pair, as XLA does before latency-hiding scheduling: the
// start issues the transfer, the done waits for it, and whatever is ordered
// between them runs while the data moves. The pair keeps the collective's
// channel id, groups, sharding, metadata and provenance; the start is named
// "<collective>-start" and the done "<collective>-done".
//
// Reduce-scatter and all-to-all stay synchronous: the device layer times
// ICI work only for the collectives above and their starts, not for an
// async-start wrapping a computation.
//
// A scheduled computation keeps its order, the pair taking the collective's
// place back to back (so the module still runs synchronously until a
// scheduler moves them apart). Fusion computations are left alone.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class AsyncCollectiveConversion : public HloPassInterface {
 public:
  absl::string_view name() const override { return "async-collective-conversion"; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace systolic
