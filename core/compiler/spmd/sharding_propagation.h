// Sharding propagation: from the shardings a user wrote (on instructions, on
// parameters, or as custom-call "Sharding" annotations) it infers one for
// every other value of the entry computation and of the computations the
// entry reaches through while, conditional and call, so the SPMD
// partitioner knows how to lay out each of them.
//
// Shardings flow forward (operand to user) and backward (user to operand)
// by the per-operation rules of sharding_rules.h, sweep after sweep until
// nothing changes. Rules run in priority order: pass-through operations
// first, then dot and convolution, then the rest, so the layouts that cost
// nothing to keep settle before the ones that need choices. Where two
// candidates disagree the one with more shards wins, and two partial
// shardings that fit together are merged. Values a user annotated are never
// changed; a while loop's state (the loop, its body's parameter and root,
// its condition's parameter) shares one sharding, an annotated member's if
// there is one. Manual shardings stay manual and flow as manual. What
// nothing informs is replicated. Tuple-shaped values get tuple shardings.
// Computations applied per element (fusions, reducers, comparators) get
// none.
//
// The pass only annotates: the computed values do not change. A module
// without any sharding is left alone.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class ShardingPropagation : public HloPassInterface {
 public:
  absl::string_view name() const override { return "sharding-propagation"; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace systolic
