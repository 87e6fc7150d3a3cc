// `systolic export PROFILE (--chrome OUT.json | --sysprof OUT.sysprof)
// [--recover]`: a saved profile as a Chrome trace (JSON) for Perfetto or
// chrome://tracing, or written again in this build's format (a recovered
// file made whole, an older version brought up to date).
#include "app/cli/cli_command.h"
#include "core/trace/chrome_trace_exporter.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"

namespace systolic::cli {
namespace {

int RunExport(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1 || args.Has("chrome") == args.Has("sysprof")) {
    err << "systolic export: give one profile file and --chrome OUT.json or --sysprof OUT.sysprof\n";
    return 2;
  }
  const std::string& path = args.positional()[0];
  trace::ReadReport report;
  absl::StatusOr<trace::Profile> profile =
      trace::ReadProfileFile(path, {.recover_unfinished = args.Has("recover")}, &report);
  if (!profile.ok()) {
    err << "systolic export: " << profile.status().message() << "\n";
    return 1;
  }
  for (const std::string& w : report.warnings) err << "warning: " << w << "\n";
  if (args.Has("sysprof")) {
    const std::string target = *args.Get("sysprof");
    if (absl::Status status = trace::WriteProfileFile(*profile, target); !status.ok()) {
      err << "systolic export: " << status.message() << "\n";
      return 1;
    }
    out << target << ": " << profile->timeline.event_count() << " events in format version "
        << trace::kFormatVersion << "\n";
    return 0;
  }
  const std::string target = *args.Get("chrome");
  trace::ChromeTraceStats stats;
  absl::Status status = trace::ExportChromeTraceFile(*profile, target, &stats);
  if (!status.ok()) {
    err << "systolic export: " << status.message() << "\n";
    return 1;
  }
  out << target << ": " << stats.complete_events << " events, " << stats.flow_events / 2
      << " flows on " << stats.threads << " threads, " << stats.bytes << " bytes\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "export",
    .summary = "write a saved profile as a Chrome trace (JSON) for Perfetto / chrome://tracing, or again as a profile",
    .options = {{"chrome", "OUT.json", "the Chrome trace file to write"},
                {"sysprof", "OUT.sysprof", "write the profile again in this build's format"},
                {"recover", "", "read what an unfinished or cut file holds"}},
    .positional_usage = "PROFILE",
    .run = RunExport,
});

}  // namespace
}  // namespace systolic::cli
