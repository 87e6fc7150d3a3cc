// The timeline's ruler: tick marks at round values for the visible window,
// labelled in the unit that suits the zoom (ps, ns, µs, ms, s) or in clock
// cycles, and the durations shown beside events in the same style.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::analysis {

struct RulerTick {
  int64_t ps = 0;
  bool major = false;
  std::string label;  // majors only: "1.25 µs", "3.5k"
};

struct TimeRuler {
  std::vector<RulerTick> ticks;
  int64_t major_step_ps = 0;
  std::string unit;  // "µs", or "cycles"
};

struct RulerOptions {
  // Labels are at least this far apart.
  int min_label_spacing_px = 90;
  // Minor ticks between two majors (a multiple that divides the step).
  int minor_per_major = 5;
  // When positive, ticks fall on whole cycles of this clock and are
  // labelled in cycles.
  double clock_hz = 0;
};

// Ticks for the window [from_ps, to_ps) drawn `width_px` pixels wide.
TimeRuler ComputeTimeRuler(int64_t from_ps, int64_t to_ps, int width_px,
                           const RulerOptions& options = {});

// A duration or instant with the unit that suits its size, to about four
// significant digits: "850 ps", "12.50 ns", "3.001 µs", "1.2 s".
std::string FormatPs(int64_t ps);
// One unit for a column of durations (a table's rows and its total), so they
// read against each other: the unit that suits the largest of them.
struct TimeUnit {
  const char* name = "ps";
  double ps = 1;
};
TimeUnit TimeUnitFor(int64_t largest_ps);
// `ps` in `unit` with three decimals (whole picoseconds in ps): "0.042 ms".
std::string FormatPsIn(int64_t ps, const TimeUnit& unit);
// Cycles of `clock_hz` in `ps`, rounded: "1,234 cycles".
std::string FormatCycles(int64_t ps, double clock_hz);

}  // namespace systolic::analysis
