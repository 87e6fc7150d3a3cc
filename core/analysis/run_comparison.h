// Two runs of a program (two profiles, or two chips' runs) compared per
// step: step time, FLOPs, busy time per unit category, and the change of
// every instruction's self time, largest change first. Self times (see
// self_time.h) partition the step, so the per-instruction changes, with the
// idle and unattributed rows, add up to the change of the step time.
#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/analysis/op_profile.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

// The names of the rows that are no instruction.
inline constexpr char kIdleRow[] = "(idle)";
inline constexpr char kUnattributedRow[] = "(unattributed)";

struct OpChange {
  std::string name;
  double before_ps = 0;  // self time per step; 0 when the run lacks it
  double after_ps = 0;
  double delta_ps() const { return after_ps - before_ps; }
};

// False for the idle and unattributed rows.
inline bool IsInstructionRow(const std::string& name) { return name != kIdleRow && name != kUnattributedRow; }

struct RunSide {
  std::string title;  // the profile's title, else its chip
  std::string chip;
  int64_t steps = 0;
  double step_ps = 0;  // per step
  double flops = 0;    // per step, on the chip compared
  double category_ps[kOpCategoryCount] = {};  // busy time per step by unit category
  double peak_flops_per_second = 0;            // the chip's; 0 when the profile lacks it
  double tflops() const { return step_ps > 0 ? flops / step_ps : 0; }  // FLOP/ps = TFLOP/s
  // The run's FLOPs per second as a share of the chip's peak (MFU when the
  // FLOPs are the model's); 0 when the peak is unknown.
  double flop_utilization() const {
    return peak_flops_per_second > 0 ? tflops() * 1e12 / peak_flops_per_second : 0;
  }
};

struct RunComparison {
  RunSide before, after;
  std::vector<OpChange> ops;  // by |delta| descending, then name
  double step_delta_ps() const { return after.step_ps - before.step_ps; }
};

// Compares chip `chip_id` (-1: the first) of the two profiles.
absl::StatusOr<RunComparison> CompareRuns(const trace::Profile& before, const trace::Profile& after,
                                          int32_t chip_id = -1);

// Each instruction's change as a share of the largest change of any
// instruction: -1 the one that gained most, +1 the one that lost most, for
// drawing the program coloured by which run is faster. Rows that are no
// instruction, and instructions that did not change, are left out.
absl::flat_hash_map<std::string, double> RelativeChanges(const RunComparison& comparison);

}  // namespace systolic::analysis
