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
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic::eval {

// The bytes of a value of `shape` (a tuple's elements summed); a double so
// that impossible shapes do not overflow.
double ShapeBytes(const Shape& shape);

// "8G", "512M", "64k", "1.5T", "1000000" (bytes); powers of 1024.
absl::StatusOr<int64_t> ParseByteSize(absl::string_view text);

struct HostMemory {
  int64_t bytes = 0;
  std::string source;  // "SYSTOLIC_MEMORY_LIMIT", "MemAvailable", ...
};

// What evaluation may use: SYSTOLIC_MEMORY_LIMIT when set (`--memory-limit`
// sets it), else the memory /proc/meminfo says is available, else half the
// physical memory. A malformed SYSTOLIC_MEMORY_LIMIT is an error.
absl::StatusOr<HostMemory> HostMemoryLimit();

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
