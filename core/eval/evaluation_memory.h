// Host memory for evaluating a program, planned before it runs: the bytes
// its values hold at their peak (each value lives from the instruction that
// makes it to its last use, as the evaluator frees them), times the devices
// that evaluate at once, against what the host may use. A program that does
// not fit stops with an error naming its largest values, instead of being
// killed by the kernel part-way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/host_memory.h"

namespace systolic::eval {

struct LiveValue {
  const HloInstruction* instruction = nullptr;
  double bytes = 0;
};

struct EvaluationMemory {
  double peak_bytes = 0;  // arguments included
  std::vector<LiveValue> at_peak;  // the values live at the peak, largest first
};

// The peak of one evaluation of `computation` on one device. A while,
// call or conditional adds its callee's own peak while it runs; a fusion
// counts only its result (the evaluator streams fused elementwise work).
EvaluationMemory PlanEvaluationMemory(const HloComputation& computation);

// ResourceExhausted when `devices` evaluations of `module`'s entry at once
// need more than HostMemoryLimit(), naming the largest values and pointing
// to --timing-only.
absl::Status CheckEvaluationFits(const HloModule& module, int64_t devices);

}  // namespace systolic::eval
