// Metrics of a run as PyTorch/XLA reports them: counters (CachedCompile,
// UncachedCompile) and sampled values (CompileTime, ExecuteTime) with their
// totals and percentiles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::trace {

enum class MetricKind : uint8_t { kCounter, kSamples };

struct MetricSample {
  int64_t timestamp_ns = 0;
  double value = 0;
  friend bool operator==(const MetricSample&, const MetricSample&) = default;
};

// Summary of a sampled metric.
struct MetricStatistics {
  int64_t count = 0;
  double total = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
};

struct Metric {
  std::string name;
  MetricKind kind = MetricKind::kCounter;
  std::string unit;  // "ns", "bytes", "" for a plain count
  int64_t counter = 0;
  std::vector<MetricSample> samples;

  MetricStatistics Statistics() const;
  friend bool operator==(const Metric&, const Metric&) = default;
};

// The report PyTorch/XLA's metrics_report() prints: per metric its samples,
// accumulator and percentiles, per counter its value.
std::string FormatMetricsReport(const std::vector<Metric>& metrics);

}  // namespace systolic::trace
