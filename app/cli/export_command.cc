// `systolic export PROFILE (--chrome OUT.json | --sysprof OUT.sysprof)
// [--recover]`: a saved profile as a Chrome trace (JSON) for Perfetto or
// chrome://tracing, or written again in this build's format (a recovered
// file made whole, an older version brought up to date).
// `systolic export PROGRAM (--hlo-proto OUT.pb | --hlo-proto-text OUT.pbtxt)`:
// a program of any format the product reads, as XLA's HloModuleProto
// (binary, or protobuf text format).
#include "app/cli/cli_command.h"
#include "core/hlo/hlo_proto_file.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/chrome_trace_exporter.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"

namespace systolic::cli {
namespace {

int ExportHloProto(const std::string& path, const std::string& target, ProtoFormat format,
                   std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<HloFileModule>> loaded = LoadProgramFile(path, /*verify=*/true);
  if (!loaded.ok()) {
    err << "systolic export: " << loaded.status().message() << "\n";
    return 1;
  }
  if (loaded->size() != 1) {
    err << "systolic export: an HLO proto holds one module; " << path << " has " << loaded->size()
        << "\n";
    return 1;
  }
  absl::StatusOr<std::unique_ptr<HloModule>>& module = loaded->front().module;
  if (!module.ok()) {
    err << "systolic export: " << module.status().message() << "\n";
    return 1;
  }
  if (absl::Status status = WriteHloModuleProtoFile(**module, target, format); !status.ok()) {
    err << "systolic export: " << target << ": " << status.message() << "\n";
    return 1;
  }
  out << target << ": HloModuleProto (" << (format == ProtoFormat::kText ? "text" : "binary")
      << ") of module " << (*module)->name() << ", " << (*module)->computation_count()
      << " computations, " << (*module)->instruction_count() << " instructions\n";
  return 0;
}

int RunExport(const CliArgs& args, std::ostream& out, std::ostream& err) {
  const int targets = int(args.Has("chrome")) + int(args.Has("sysprof")) +
                      int(args.Has("hlo-proto")) + int(args.Has("hlo-proto-text"));
  if (args.positional().size() != 1 || targets != 1) {
    err << "systolic export: give one file and one of --chrome OUT.json, --sysprof OUT.sysprof "
           "(a profile), --hlo-proto OUT.pb or --hlo-proto-text OUT.pbtxt (a program)\n";
    return 2;
  }
  if (args.Has("hlo-proto")) {
    return ExportHloProto(args.positional()[0], *args.Get("hlo-proto"), ProtoFormat::kBinary, out, err);
  }
  if (args.Has("hlo-proto-text")) {
    return ExportHloProto(args.positional()[0], *args.Get("hlo-proto-text"), ProtoFormat::kText, out,
                          err);
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
    .summary = "write a saved profile as a Chrome trace (JSON) for Perfetto / chrome://tracing, or again as a profile; or a program as XLA's HloModuleProto",
    .options = {{"chrome", "OUT.json", "the Chrome trace file to write"},
                {"sysprof", "OUT.sysprof", "write the profile again in this build's format"},
                {"hlo-proto", "OUT.pb", "write the program as a binary HloModuleProto"},
                {"hlo-proto-text", "OUT.pbtxt", "write the program as a text-format HloModuleProto"},
                {"recover", "", "read what an unfinished or cut file holds"}},
    .positional_usage = "PROFILE | PROGRAM",
    .run = RunExport,
});

}  // namespace
}  // namespace systolic::cli
