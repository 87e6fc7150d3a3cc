#include "core/analysis/time_ruler.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace systolic::analysis {
namespace {

constexpr TimeUnit kUnits[] = {{"ps", 1}, {"ns", 1e3}, {"µs", 1e6}, {"ms", 1e9}, {"s", 1e12}};

// The smallest 1, 2 or 5 times a power of ten that is at least `x`.
double NiceStep(double x) {
  if (x <= 1) return 1;
  const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * magnitude >= x * (1 - 1e-12)) return m * magnitude;
  }
  return 10 * magnitude;
}

// Decimals needed to tell values `step` apart in `scale` units.
int DecimalsFor(double step, double scale) {
  const double ratio = step / scale;
  if (ratio >= 1) return 0;
  return std::min(6, int(std::ceil(-std::log10(ratio) - 1e-9)));
}

std::string FormatScaled(double value, int decimals) {
  return absl::StrFormat("%.*f", decimals, value);
}

}  // namespace

TimeRuler ComputeTimeRuler(int64_t from_ps, int64_t to_ps, int width_px,
                           const RulerOptions& options) {
  TimeRuler ruler;
  if (width_px <= 0 || to_ps <= from_ps) return ruler;
  const double ps_per_px = double(to_ps - from_ps) / width_px;
  const double min_step = ps_per_px * std::max(options.min_label_spacing_px, 1);
  const bool cycles = options.clock_hz > 0;
  const double ps_per_cycle = cycles ? 1e12 / options.clock_hz : 1;

  // The step in the ruler's own unit (picoseconds or cycles).
  const double step_units = NiceStep(min_step / ps_per_cycle);
  const double step_ps = step_units * ps_per_cycle;
  ruler.major_step_ps = int64_t(std::llround(step_ps));

  double label_scale = 1;
  const char* suffix = "";
  if (cycles) {
    ruler.unit = "cycles";
    if (step_units >= 1e6) {
      label_scale = 1e6;
      suffix = "M";
    } else if (step_units >= 1e3) {
      label_scale = 1e3;
      suffix = "k";
    }
  } else {
    const TimeUnit unit = TimeUnitFor(int64_t(step_ps));
    ruler.unit = unit.name;
    label_scale = unit.ps;
    suffix = unit.name;
  }
  const int decimals = DecimalsFor(step_units, label_scale);

  const int minor = std::max(options.minor_per_major, 1);
  const double minor_units = step_units / minor;
  const int64_t first = int64_t(std::floor(double(from_ps) / ps_per_cycle / minor_units));
  const int64_t last = int64_t(std::ceil(double(to_ps) / ps_per_cycle / minor_units));
  if (last - first > 100000) return ruler;  // a degenerate window
  for (int64_t i = first; i <= last; ++i) {
    const double units = double(i) * minor_units;
    const int64_t ps = int64_t(std::llround(units * ps_per_cycle));
    if (ps < from_ps || ps > to_ps) continue;
    RulerTick tick;
    tick.ps = ps;
    tick.major = i % minor == 0;
    if (tick.major) {
      tick.label = FormatScaled(units / label_scale, decimals);
      if (*suffix) absl::StrAppend(&tick.label, cycles ? "" : " ", suffix);
    }
    ruler.ticks.push_back(std::move(tick));
  }
  return ruler;
}

TimeUnit TimeUnitFor(int64_t largest_ps) {
  const double magnitude = std::fabs(double(largest_ps));
  TimeUnit unit = kUnits[0];
  for (const TimeUnit& u : kUnits) {
    if (magnitude >= u.ps) unit = u;
  }
  return unit;
}

std::string FormatPs(int64_t ps) {
  const TimeUnit unit = TimeUnitFor(ps);
  if (unit.ps == 1) return absl::StrCat(ps, " ps");
  const double value = double(ps) / unit.ps;
  const int decimals = std::fabs(value) >= 100 ? 1 : std::fabs(value) >= 10 ? 2 : 3;
  return absl::StrFormat("%.*f %s", decimals, value, unit.name);
}

std::string FormatPsIn(int64_t ps, const TimeUnit& unit) {
  if (unit.ps == 1) return absl::StrCat(ps, " ps");
  return absl::StrFormat("%.3f %s", double(ps) / unit.ps, unit.name);
}

std::string FormatCycles(int64_t ps, double clock_hz) {
  const int64_t cycles = int64_t(std::llround(double(ps) * clock_hz / 1e12));
  std::string digits = absl::StrCat(cycles < 0 ? -cycles : cycles);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(digits[i]);
  }
  return absl::StrCat(cycles < 0 ? "-" : "", grouped, cycles == 1 ? " cycle" : " cycles");
}

}  // namespace systolic::analysis
