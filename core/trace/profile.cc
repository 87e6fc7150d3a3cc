#include "core/trace/profile.h"

namespace systolic::trace {

const ProgramRecord* Profile::FindProgram(int64_t id) const {
  for (const ProgramRecord& program : programs) {
    if (program.id == id) return &program;
  }
  return nullptr;
}

const Metric* Profile::FindMetric(absl::string_view name) const {
  for (const Metric& metric : metrics) {
    if (metric.name == name) return &metric;
  }
  return nullptr;
}

Metric& Profile::GetOrAddMetric(absl::string_view name, MetricKind kind, absl::string_view unit) {
  for (Metric& metric : metrics) {
    if (metric.name == name) return metric;
  }
  Metric& metric = metrics.emplace_back();
  metric.name = std::string(name);
  metric.kind = kind;
  metric.unit = std::string(unit);
  return metric;
}

}  // namespace systolic::trace
