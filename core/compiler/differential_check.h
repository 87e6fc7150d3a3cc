// Does the compiled program still compute what the original did? Both run
// on the reference evaluator with the same pseudo-random arguments; the
// results must be equal bit for bit, or, when a pass said a rewrite may
// change floating-point results (CompilationHistory::changed_numerics),
// equal within a tolerance. Used by `systolic compile --check` and by the
// differential tests.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"

namespace systolic {

struct DifferentialOptions {
  uint64_t seed = 0;
  bool exact = true;  // bit for bit (NaN equals NaN)
  // Otherwise |compiled - original| <= absolute + relative * |original| per
  // element of a floating-point type; integers and pred stay exact.
  double relative_tolerance = 1e-4;
  double absolute_tolerance = 1e-5;
  int64_t max_while_iterations = 1 << 20;
  // Host memory the arguments and any one value may take.
  int64_t max_host_bytes = int64_t{1} << 30;
};

struct DifferentialResult {
  bool same = false;
  std::string mismatch;  // where and how they differ, when not the same
};

// Where `compiled` first differs from `original` (two literals of one
// shape) under the options' tolerance, named from `where`; "" if nowhere.
std::string FirstDifference(const Literal& original, const Literal& compiled,
                            const std::string& where, const DifferentialOptions& options);

// A compiled module that was partitioned runs on its partitions with the
// shards of the same arguments (partitioned_execution.h).
absl::StatusOr<DifferentialResult> CheckSameResults(const HloModule& original,
                                                    const HloModule& compiled,
                                                    const DifferentialOptions& options = {});

}  // namespace systolic
