// Reading shardings off instructions: the `Sharding` custom-call a front end
// writes to annotate a value, and the sharding of one element of a tuple
// (a non-tuple sharding on a tuple value applies to every element).
#pragma once

#include <cstdint>

#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_sharding.h"

namespace systolic {

// custom-call(x), custom_call_target="Sharding": x laid out by its sharding.
bool IsShardingAnnotation(const HloInstruction& instr);

// The sharding of tuple element `index`; replicated past the end of a tuple
// sharding.
HloSharding TupleElementSharding(const HloSharding& sharding, int64_t index);

}  // namespace systolic
