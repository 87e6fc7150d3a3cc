// Counters and sampled metrics of a lazy device, reported the way
// PyTorch/XLA's metrics_report() does: per metric its samples, accumulator
// and percentiles (CompileTime, ExecuteTime, TransferToDeviceTime...), per
// counter its value (UncachedCompile, CachedCompile, MarkStep...), and the
// warnings users need most ("compiled 5 times in 6 steps").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace systolic::lazy {

// Names shared by the front end and its readers.
namespace metric_names {
inline constexpr char kCompileTime[] = "CompileTime";
inline constexpr char kExecuteTime[] = "ExecuteTime";
inline constexpr char kTransferToDeviceTime[] = "TransferToDeviceTime";
inline constexpr char kTransferFromDeviceTime[] = "TransferFromDeviceTime";
inline constexpr char kOutboundData[] = "OutboundData";  // bytes host -> device
inline constexpr char kInboundData[] = "InboundData";    // bytes device -> host
inline constexpr char kTensorsGraphSize[] = "TensorsGraphSize";
inline constexpr char kUncachedCompile[] = "UncachedCompile";
inline constexpr char kCachedCompile[] = "CachedCompile";
inline constexpr char kMarkStep[] = "MarkStep";
inline constexpr char kSyncTensors[] = "SyncTensors";  // reads that ran a graph
inline constexpr char kTransferToDevice[] = "TransferToDevice";
inline constexpr char kTransferFromDevice[] = "TransferFromDevice";
inline constexpr char kExecutions[] = "Executions";
}  // namespace metric_names

enum class MetricUnit { kNanoseconds, kBytes, kCount };

struct MetricData {
  MetricUnit unit = MetricUnit::kCount;
  std::vector<double> samples;
  double total = 0;
  // The value below which `fraction` of the samples lie (nearest rank).
  double Percentile(double fraction) const;
};

class Metrics {
 public:
  void IncrementCounter(absl::string_view name, int64_t delta = 1);
  void AddSample(absl::string_view name, double value, MetricUnit unit);
  // Sets the warning under `key` (a later one with the same key replaces it).
  void SetWarning(absl::string_view key, std::string warning);

  int64_t counter(absl::string_view name) const;  // 0 if never counted
  const MetricData* metric(absl::string_view name) const;
  const std::map<std::string, int64_t>& counters() const { return counters_; }
  const std::map<std::string, MetricData>& metrics() const { return metrics_; }
  std::vector<std::string> warnings() const;

  // Metrics, then counters, then warnings:
  //   Metric: CompileTime
  //     TotalSamples: 2
  //     Accumulator: 120ms350.000us
  //     Percentiles: 1%=...; 5%=...; ...; 99%=...
  //   Counter: UncachedCompile
  //     Value: 2
  //   Warning: compiled 5 times in 6 steps ...
  std::string Report() const;

 private:
  std::map<std::string, int64_t> counters_;
  std::map<std::string, MetricData> metrics_;
  std::map<std::string, std::string> warnings_;
};

// "1s234ms567.890us", "12ms345.678us", "345.678us".
std::string FormatNanoseconds(double ns);
// "1.50MB", "12.00KB", "512B".
std::string FormatBytes(double bytes);

}  // namespace systolic::lazy
