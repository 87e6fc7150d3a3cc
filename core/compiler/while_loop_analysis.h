// How many times a `while` runs its body, found without running it: from the
// `known_trip_count` XLA records in the loop's backend_config, or proven from
// the loop's induction variable (a tuple element that starts at a constant,
// changes by a constant each iteration and is compared against a constant by
// the condition), as XLA's while-loop analysis does. Looks through copies,
// converts and the fusions a compiled module wraps these in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/compiler/scalar_value.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic {

struct WhileTripCount {
  int64_t count = 0;
  // "known_trip_count" or "induction variable"; says where the count came from.
  std::string source;
};

// The trip count of `while_loop` (a kWhile), or nullopt when it cannot be
// proven (the count depends on values, or the loop is not in a known form).
std::optional<WhileTripCount> ComputeWhileTripCount(const HloInstruction& while_loop);

// The `known_trip_count` of a while's backend_config
// (`{"known_trip_count":{"n":"32"}}`), if it has one.
std::optional<int64_t> KnownTripCount(const HloInstruction& while_loop);

}  // namespace systolic
