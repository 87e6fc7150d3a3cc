#include "core/trace/metric.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace systolic::trace {
namespace {

// Nearest-rank percentile of sorted values.
double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

std::string FormatValue(double v, const std::string& unit) {
  if (unit == "ns") {
    if (v >= 1e9) return absl::StrFormat("%.3fs", v / 1e9);
    if (v >= 1e6) return absl::StrFormat("%.3fms", v / 1e6);
    if (v >= 1e3) return absl::StrFormat("%.3fus", v / 1e3);
    return absl::StrFormat("%.0fns", v);
  }
  return absl::StrCat(absl::StrFormat("%.6g", v), unit.empty() ? "" : unit);
}

}  // namespace

MetricStatistics Metric::Statistics() const {
  MetricStatistics s;
  if (samples.empty()) return s;
  std::vector<double> values;
  values.reserve(samples.size());
  for (const MetricSample& sample : samples) values.push_back(sample.value);
  std::sort(values.begin(), values.end());
  s.count = int64_t(values.size());
  for (double v : values) s.total += v;
  s.min = values.front();
  s.max = values.back();
  s.mean = s.total / double(s.count);
  s.p50 = Percentile(values, 50);
  s.p90 = Percentile(values, 90);
  s.p99 = Percentile(values, 99);
  return s;
}

std::string FormatMetricsReport(const std::vector<Metric>& metrics) {
  std::string out;
  for (const Metric& m : metrics) {
    if (m.kind != MetricKind::kSamples) continue;
    const MetricStatistics s = m.Statistics();
    absl::StrAppend(&out, "Metric: ", m.name, "\n  TotalSamples: ", s.count,
                    "\n  Accumulator: ", FormatValue(s.total, m.unit),
                    "\n  Percentiles: 50%=", FormatValue(s.p50, m.unit),
                    "; 90%=", FormatValue(s.p90, m.unit), "; 99%=", FormatValue(s.p99, m.unit),
                    "\n");
  }
  for (const Metric& m : metrics) {
    if (m.kind != MetricKind::kCounter) continue;
    absl::StrAppend(&out, "Counter: ", m.name, "\n  Value: ", m.counter, "\n");
  }
  return out;
}

}  // namespace systolic::trace
