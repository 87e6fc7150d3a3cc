// The time of each `while` loop of a program on the simulated chip, and of
// one of its iterations, read from the profile's control-flow lanes (the
// spans `systolic run --profile` writes for each loop with its iteration
// count). What the graph view shows beside a loop and its body.
#pragma once

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

struct LoopTime {
  int64_t runs = 0;        // times the loop ran (more inside an outer loop)
  int64_t iterations = 0;  // of its body, over every run
  int64_t total_ps = 0;    // every run, condition checks included
  double per_iteration_ps() const {
    return iterations > 0 ? double(total_ps) / double(iterations) : 0;
  }
};

using LoopTimes = absl::flat_hash_map<std::string, LoopTime>;

// By while instruction, the loops of `program` on the first chip: within
// the steps that ran it, or the whole chip timeline when it has no steps
// named so. Empty for profiles written before loops recorded their counts.
LoopTimes ComputeLoopTimes(const trace::Profile& profile, const std::string& program);

// "32 iterations × 22.76 ms = 728.3 ms"; with several runs,
// "4 runs, 128 iterations × 5.690 ms = 728.3 ms".
std::string LoopTimeInWords(const LoopTime& loop);

// The while whose body or condition `computation` is, if any.
const HloInstruction* LoopRunning(const HloComputation& computation);

}  // namespace systolic::analysis
