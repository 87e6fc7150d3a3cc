// Helpers that keep provenance complete when a pass builds new instructions:
// whatever a rewrite creates is made from what it rewrote.
#pragma once

#include <cstdint>

#include "core/hlo/hlo_instruction.h"

namespace systolic {

// Every instruction reachable from `root` through operands (and the
// computations they call) whose unique id is at least `first_new_id` (a
// value of HloModule::next_unique_id() taken before the rewrite) gets the
// provenance of `source`.
void AdoptProvenance(HloInstruction* root, int64_t first_new_id, const HloInstruction& source);

// Every instruction of `computation` (and what it calls) gets the
// provenance of `source`; for computations a pass builds from scratch.
void AdoptProvenanceForComputation(HloComputation* computation, const HloInstruction& source);

}  // namespace systolic
