// Deterministic pseudo-random values for a program's parameters, the same on
// every machine (SplitMix64 streams, no library distributions): integers in a
// small range ([-8, 8) signed, [0, 16) unsigned, clipped to narrow types),
// floats uniform in [-1, 1) rounded to the type, complex numbers with both
// parts so, pred true or false. Each parameter (and each device of an SPMD
// run) draws from its own stream, so adding a parameter leaves the others
// unchanged. Used by `systolic eval`, `run` and `compile`.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/literal.h"
#include "core/hlo/shape.h"

namespace systolic {

Literal MakeRandomLiteral(const Shape& shape, uint64_t seed);

// One literal per parameter of `computation`; `stream` separates devices.
std::vector<Literal> MakeRandomArguments(const HloComputation& computation, uint64_t seed,
                                         uint64_t stream = 0);

// An error naming the parameter when the arguments of `computation` would
// take more than `max_bytes` of host memory together (a program written for
// a pod may have parameters no host holds).
absl::Status CheckArgumentsFit(const HloComputation& computation, int64_t max_bytes);

}  // namespace systolic
