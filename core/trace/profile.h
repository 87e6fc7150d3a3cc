// A profile: everything the studio shows about one session — the chip and
// topology, each program's module after every pass with provenance,
// shardings and buffers, every compile with its cause, the runs and steps,
// each chip's per-unit timelines and the metrics. Producers fill it in,
// files store it (profile_writer.h / profile_reader.h), views read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/trace/chip_summary.h"
#include "core/trace/compile_event.h"
#include "core/trace/metric.h"
#include "core/trace/program_record.h"
#include "core/trace/run_record.h"
#include "core/trace/timeline.h"
#include "core/trace/topology_record.h"

namespace systolic::trace {

struct ProfileInfo {
  std::string producer;  // "systolic 0.1.0", "xspace import"
  int64_t created_unix_ns = 0;
  std::string hostname;
  std::string title;
  std::vector<std::string> notes;  // warnings from the producer or an importer
  friend bool operator==(const ProfileInfo&, const ProfileInfo&) = default;
};

class Profile {
 public:
  ProfileInfo info;
  ChipSummary chip;
  TopologyRecord topology;
  std::vector<ProgramRecord> programs;
  std::vector<CompileEvent> compile_events;
  std::vector<RunRecord> runs;
  Timeline timeline;
  std::vector<Metric> metrics;

  const ProgramRecord* FindProgram(int64_t id) const;
  const Metric* FindMetric(absl::string_view name) const;
  // The metric named `name`, added with `kind` and `unit` when absent.
  Metric& GetOrAddMetric(absl::string_view name, MetricKind kind, absl::string_view unit = "");

  friend bool operator==(const Profile&, const Profile&) = default;
};

}  // namespace systolic::trace
