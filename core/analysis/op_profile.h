// The op profile of one chip (as XProf's op profile and roofline): per HLO
// instruction its time, share of the step, FLOPs, bytes, arithmetic
// intensity and achieved FLOP/s against the chip's peak, time by unit
// category, and the roofline the ops are placed on. Computed from the
// timeline's events that name their instruction (stat "hlo_op") with their
// "flops" and "bytes" stats, as `systolic run --profile` writes them; for a
// real device's profile, which has no unit lanes, from its "XLA Ops" lanes
// (events named after their instruction, "bytes_accessed" for bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

enum class OpCategory : uint8_t { kMxu, kVector, kDma, kOther };
inline constexpr int kOpCategoryCount = 4;
const char* OpCategoryName(OpCategory category);  // "MXU", "vector", "DMA", "other"

struct OpStats {
  std::string name;  // the HLO instruction
  int64_t event_count = 0;
  int64_t total_ps = 0;  // summed event durations over every unit
  int64_t wall_ps = 0;   // time at least one unit works on it
  // The step time that is its alone (see self_time.h): the instructions'
  // self times, the unattributed time and the idle time add up to step_ps.
  int64_t self_ps = 0;
  int64_t first_start_ps = 0;
  int64_t last_end_ps = 0;
  double step_fraction = 0;  // wall_ps over the step time
  double flops = 0;
  int64_t bytes = 0;
  double intensity = 0;  // FLOPs per byte; 0 without bytes
  double achieved_flops_per_second = 0;  // flops over wall time
  // Achieved over the chip's peak at the rate it ran (int8 on an MXU with
  // an int8 mode: the int8 peak, from its events' "mxu_rate").
  double peak_fraction = 0;
  OpCategory category = OpCategory::kOther;
  // Roofline: min(peak, intensity × bandwidth); 0 when not on the roofline.
  double attainable_flops_per_second = 0;
  // On the roofline: has FLOPs, bytes and time (log axes need all three).
  bool on_roofline = false;
};

struct Roofline {
  double peak_flops_per_second = 0;
  double bandwidth_bytes_per_second = 0;
  double ridge_intensity = 0;  // peak / bandwidth: FLOPs per byte where the roofs meet
  // The roof at `intensity`: min(peak, intensity × bandwidth).
  double Attainable(double intensity) const;
};

struct OpProfile {
  int32_t chip_id = 0;
  int64_t step_ps = 0;  // the chip's steps summed, or its span without steps
  int64_t step_count = 0;  // the steps summed in step_ps; 0 when it is the span
  int64_t idle_ps = 0;     // step time no unit works
  int64_t unattributed_ps = 0;  // step time of events that name no instruction
  std::vector<OpStats> ops;  // most time first
  int64_t category_ps[kOpCategoryCount] = {};  // summed event durations per unit category
  Roofline roofline;
  const OpStats* Find(const std::string& name) const;
};

// The op profile of chip `chip_id` (-1: the first chip plane). NotFound
// when the profile has no such chip plane.
absl::StatusOr<OpProfile> ComputeOpProfile(const trace::Profile& profile, int32_t chip_id = -1);

}  // namespace systolic::analysis
