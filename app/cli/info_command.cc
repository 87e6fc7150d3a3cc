// `systolic info PROFILE [--json] [--recover]`: what a saved profile holds —
// programs and their stages, compiles, runs, events per lane, time span.
//
// --json keys: file, format_version, finished, file_bytes, chunks,
// producer, title, hostname, chip {name, peak_flops_per_second, hbm_bytes,
// hbm_bandwidth_bytes_per_second, clock_hz, cores_per_chip, mxus_per_core,
// mxu_rows, mxu_cols}, topology {shape, chips, links}, programs, stages,
// compiles {total, cache_hits, cache_misses, compile_time_ns}, runs, steps,
// timeline {planes, chips, lanes, events, flows, start_ps, end_ps,
// duration_ps}, lanes [{plane, lane, kind, events, busy_ps}], metrics
// [{name, kind, unit, value | samples, total, p50, p90, p99}], warnings.
#include <iomanip>

#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_summary.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

using trace::FormatDurationPs;

nlohmann::json ToJson(const std::string& path, const trace::Profile& p,
                      const trace::ReadReport& report, const trace::ProfileSummary& s) {
  nlohmann::json j;
  j["file"] = path;
  j["format_version"] = report.format_version;
  j["finished"] = report.finished;
  j["file_bytes"] = report.file_bytes;
  j["chunks"] = report.chunk_count;
  j["producer"] = p.info.producer;
  j["title"] = p.info.title;
  j["hostname"] = p.info.hostname;
  j["chip"] = {{"name", p.chip.name},
               {"peak_flops_per_second", p.chip.peak_flops_per_second},
               {"hbm_bytes", p.chip.hbm_bytes},
               {"hbm_bandwidth_bytes_per_second", p.chip.hbm_bandwidth_bytes_per_second},
               {"clock_hz", p.chip.clock_hz},
               {"cores_per_chip", p.chip.cores_per_chip},
               {"mxus_per_core", p.chip.mxus_per_core},
               {"mxu_rows", p.chip.mxu_rows},
               {"mxu_cols", p.chip.mxu_cols}};
  j["topology"] = {{"shape", p.topology.shape},
                   {"chips", p.topology.chips.size()},
                   {"links", p.topology.links.size()}};
  j["programs"] = s.programs;
  j["stages"] = s.stages;
  j["compiles"] = {{"total", s.compiles},
                   {"cache_hits", s.cache_hits},
                   {"cache_misses", s.cache_misses},
                   {"compile_time_ns", s.compile_time_ns}};
  j["runs"] = s.runs;
  j["steps"] = s.steps;
  j["timeline"] = {{"planes", s.planes},        {"chips", s.chips},
                   {"lanes", s.lanes.size()},   {"events", s.events},
                   {"flows", s.flows},          {"start_ps", s.span.start_ps},
                   {"end_ps", s.span.end_ps},   {"duration_ps", s.span.duration_ps()}};
  nlohmann::json lanes = nlohmann::json::array();
  for (const trace::LaneSummary& lane : s.lanes) {
    lanes.push_back({{"plane", lane.plane_name},
                     {"lane", lane.line_name},
                     {"kind", trace::LaneKindName(lane.kind)},
                     {"events", lane.event_count},
                     {"busy_ps", lane.busy_ps}});
  }
  j["lanes"] = lanes;
  nlohmann::json metrics = nlohmann::json::array();
  for (const trace::Metric& m : p.metrics) {
    nlohmann::json entry = {{"name", m.name}, {"unit", m.unit}};
    if (m.kind == trace::MetricKind::kCounter) {
      entry["kind"] = "counter";
      entry["value"] = m.counter;
    } else {
      const trace::MetricStatistics st = m.Statistics();
      entry["kind"] = "samples";
      entry["samples"] = st.count;
      entry["total"] = st.total;
      entry["p50"] = st.p50;
      entry["p90"] = st.p90;
      entry["p99"] = st.p99;
    }
    metrics.push_back(entry);
  }
  j["metrics"] = metrics;
  j["warnings"] = report.warnings;
  return j;
}

void PrintText(const std::string& path, const trace::Profile& p, const trace::ReadReport& report,
               const trace::ProfileSummary& s, std::ostream& out) {
  out << path << ": format version " << report.format_version << ", " << report.file_bytes
      << " bytes, " << report.chunk_count << " chunks"
      << (report.finished ? "" : " (unfinished: recovered)") << "\n";
  if (!p.info.producer.empty()) out << "producer: " << p.info.producer << "\n";
  if (!p.info.title.empty()) out << "title: " << p.info.title << "\n";
  if (!p.chip.name.empty()) {
    out << absl::StrFormat(
        "chip: %s (%.0f TFLOP/s, %.0f GiB HBM at %.0f GB/s, %.0f MHz, %d cores x %d MXU %dx%d)\n",
        p.chip.name, p.chip.peak_flops_per_second / 1e12, double(p.chip.hbm_bytes) / (1 << 30),
        p.chip.hbm_bandwidth_bytes_per_second / 1e9, p.chip.clock_hz / 1e6, p.chip.cores_per_chip,
        p.chip.mxus_per_core, p.chip.mxu_rows, p.chip.mxu_cols);
  }
  if (!p.topology.shape.empty()) {
    out << "topology: " << p.topology.shape << " (" << p.topology.chips.size() << " chips, "
        << p.topology.links.size() << " links)\n";
  }
  out << "programs: " << s.programs << " (" << s.stages << " stages)\n";
  out << "compiles: " << s.compiles << " (" << s.cache_hits << " hits, " << s.cache_misses
      << " misses, " << FormatDurationPs(s.compile_time_ns * 1000) << " compiling)\n";
  out << "runs: " << s.runs << " (" << s.steps << " steps)\n";
  out << "timeline: " << s.chips << " chips, " << s.planes << " planes, " << s.lanes.size()
      << " lanes, " << s.events << " events, " << s.flows << " flows; span "
      << FormatDurationPs(s.span.start_ps) << " .. " << FormatDurationPs(s.span.end_ps) << " ("
      << FormatDurationPs(s.span.duration_ps()) << ")\n";
  size_t plane_width = 0, lane_width = 0;
  for (const trace::LaneSummary& lane : s.lanes) {
    plane_width = std::max(plane_width, lane.plane_name.size());
    lane_width = std::max(lane_width, lane.line_name.size());
  }
  for (const trace::LaneSummary& lane : s.lanes) {
    out << "  " << std::left << std::setw(int(plane_width)) << lane.plane_name << "  "
        << std::setw(int(lane_width)) << lane.line_name << "  " << std::setw(8)
        << trace::LaneKindName(lane.kind) << std::right << std::setw(10) << lane.event_count
        << " events  busy " << FormatDurationPs(lane.busy_ps) << "\n";
  }
  if (!p.metrics.empty()) out << trace::FormatMetricsReport(p.metrics);
  for (const std::string& w : report.warnings) out << "warning: " << w << "\n";
}

int RunInfo(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1) {
    err << "systolic info: give one profile file\n";
    return 2;
  }
  const std::string& path = args.positional()[0];
  trace::ReadReport report;
  absl::StatusOr<trace::Profile> profile =
      trace::ReadProfileFile(path, {.recover_unfinished = args.Has("recover")}, &report);
  if (!profile.ok()) {
    err << "systolic info: " << profile.status().message() << "\n";
    return 1;
  }
  const trace::ProfileSummary summary = trace::SummarizeProfile(*profile);
  if (args.Has("json")) {
    out << ToJson(path, *profile, report, summary).dump(2) << "\n";
  } else {
    PrintText(path, *profile, report, summary, out);
  }
  return 0;
}

const CommandRegistration kRegistration({
    .name = "info",
    .summary = "summarise a saved profile: programs, stages, compiles, events per lane, time span",
    .options = {{"json", "", "print the figures as JSON"},
                {"recover", "", "read what an unfinished or cut file holds"}},
    .positional_usage = "PROFILE",
    .run = RunInfo,
});

}  // namespace
}  // namespace systolic::cli
