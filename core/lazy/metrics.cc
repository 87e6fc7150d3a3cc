#include "core/lazy/metrics.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace systolic::lazy {

double MetricData::Percentile(double fraction) const {
  if (samples.empty()) return 0;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(fraction * double(sorted.size()));
  const size_t index = size_t(std::clamp(rank, 1.0, double(sorted.size()))) - 1;
  return sorted[index];
}

void Metrics::IncrementCounter(absl::string_view name, int64_t delta) {
  counters_[std::string(name)] += delta;
}

void Metrics::AddSample(absl::string_view name, double value, MetricUnit unit) {
  MetricData& data = metrics_[std::string(name)];
  data.unit = unit;
  data.samples.push_back(value);
  data.total += value;
}

void Metrics::SetWarning(absl::string_view key, std::string warning) {
  warnings_[std::string(key)] = std::move(warning);
}

std::vector<std::string> Metrics::warnings() const {
  std::vector<std::string> out;
  for (const auto& [key, text] : warnings_) out.push_back(text);
  return out;
}

int64_t Metrics::counter(absl::string_view name) const {
  auto it = counters_.find(std::string(name));
  return it == counters_.end() ? 0 : it->second;
}

const MetricData* Metrics::metric(absl::string_view name) const {
  auto it = metrics_.find(std::string(name));
  return it == metrics_.end() ? nullptr : &it->second;
}

std::string FormatNanoseconds(double ns) {
  const int64_t total_ns = int64_t(std::llround(ns));
  const int64_t seconds = total_ns / 1000000000;
  const int64_t ms = (total_ns / 1000000) % 1000;
  const double us = double(total_ns % 1000000) / 1000.0;
  if (seconds > 0) return absl::StrFormat("%ds%03dms%07.3fus", seconds, ms, us);
  if (ms > 0) return absl::StrFormat("%dms%07.3fus", ms, us);
  return absl::StrFormat("%.3fus", us);
}

std::string FormatBytes(double bytes) {
  if (bytes >= 1024.0 * 1024 * 1024) return absl::StrFormat("%.2fGB", bytes / (1024.0 * 1024 * 1024));
  if (bytes >= 1024.0 * 1024) return absl::StrFormat("%.2fMB", bytes / (1024.0 * 1024));
  if (bytes >= 1024.0) return absl::StrFormat("%.2fKB", bytes / 1024.0);
  return absl::StrFormat("%.0fB", bytes);
}

namespace {

std::string FormatValue(double value, MetricUnit unit) {
  switch (unit) {
    case MetricUnit::kNanoseconds:
      return FormatNanoseconds(value);
    case MetricUnit::kBytes:
      return FormatBytes(value);
    case MetricUnit::kCount:
      return absl::StrFormat("%.2f", value);
  }
  return "";
}

}  // namespace

std::string Metrics::Report() const {
  std::string out;
  static constexpr double kPercentiles[] = {0.01, 0.05, 0.10, 0.20, 0.50, 0.80, 0.90, 0.95, 0.99};
  for (const auto& [name, data] : metrics_) {
    absl::StrAppend(&out, "Metric: ", name, "\n");
    absl::StrAppend(&out, "  TotalSamples: ", data.samples.size(), "\n");
    absl::StrAppend(&out, "  Accumulator: ", FormatValue(data.total, data.unit), "\n");
    std::string percentiles;
    for (double p : kPercentiles) {
      if (!percentiles.empty()) percentiles += "; ";
      absl::StrAppend(&percentiles, int(std::lround(p * 100)), "%=",
                      FormatValue(data.Percentile(p), data.unit));
    }
    absl::StrAppend(&out, "  Percentiles: ", percentiles, "\n");
  }
  for (const auto& [name, value] : counters_) {
    absl::StrAppend(&out, "Counter: ", name, "\n  Value: ", value, "\n");
  }
  for (const auto& [key, warning] : warnings_) absl::StrAppend(&out, "Warning: ", warning, "\n");
  return out;
}

}  // namespace systolic::lazy
