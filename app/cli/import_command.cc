// `systolic import X.xplane.pb -o OUT [--json]`: a profile from JAX,
// TensorFlow or PyTorch/XLA (an XSpace) saved as a Systolic profile.
// `systolic import DIR -o OUT [--json]`: an XLA dump folder
// (`--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*`), its modules with XLA's
// passes as their stages.
//
// --json keys (XSpace): input, output, device_planes, host_planes, events,
// aggregated_events_skipped, skipped_planes, warnings.
// --json keys (dump folder): input, output, modules [module_number, name,
// program_id, stages [file, pass, changed, instructions], execution_snapshots],
// skipped [file, reason], errors.
#include <filesystem>

#include "app/cli/cli_command.h"
#include "app/cli/progress_line.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xla_dump_importer.h"
#include "core/trace/xspace_importer.h"
#include "core/trace/xspace_programs.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

nlohmann::json DumpReportJson(const std::string& input, const std::string& output,
                              const trace::XlaDumpImportReport& report) {
  nlohmann::json modules = nlohmann::json::array();
  for (const trace::XlaDumpModule& module : report.modules) {
    nlohmann::json stages = nlohmann::json::array();
    for (const trace::XlaDumpStage& stage : module.stages) {
      stages.push_back({{"file", stage.file},
                        {"pass", stage.pass_name},
                        {"changed", stage.changed},
                        {"instructions", stage.instruction_count}});
    }
    modules.push_back({{"module_number", module.module_number},
                       {"name", module.name},
                       {"program_id", module.program_id},
                       {"stages", stages},
                       {"execution_snapshots", module.execution_snapshots}});
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const trace::XlaDumpSkippedFile& file : report.skipped) {
    skipped.push_back({{"file", file.file}, {"reason", file.reason}});
  }
  return {{"input", input},   {"output", output},  {"modules", modules},
          {"skipped", skipped}, {"errors", report.errors}};
}

void PrintDumpReport(const std::string& output, const trace::XlaDumpImportReport& report,
                     std::ostream& out) {
  out << output << ": " << report.modules.size() << " modules from an XLA dump\n";
  for (const trace::XlaDumpModule& module : report.modules) {
    out << "module " << module.module_number << " " << module.name << ": "
        << module.stages.size() << " stages\n";
    for (const trace::XlaDumpStage& stage : module.stages) {
      out << "  " << stage.pass_name << (stage.changed ? "" : " (unchanged)") << ", "
          << stage.instruction_count << " instructions  [" << stage.file << "]\n";
    }
    for (const std::string& snapshot : module.execution_snapshots) {
      out << "  runnable input (execution snapshot): " << snapshot << "\n";
    }
  }
  for (const trace::XlaDumpSkippedFile& file : report.skipped) {
    out << "skipped " << file.file << ": " << file.reason << "\n";
  }
  for (const std::string& error : report.errors) out << "error: " << error << "\n";
}

int ImportDumpFolder(const CliArgs& args, const std::string& input, const std::string& output,
                     std::ostream& out, std::ostream& err) {
  trace::XlaDumpImportReport report;
  absl::StatusOr<trace::Profile> profile;
  {
    ProgressLine progress;
    profile = trace::ImportXlaDumpFolder(input, &report, [&](int64_t done, int64_t total) {
      progress.Update("reading", double(done) / double(total),
                      std::to_string(done) + "/" + std::to_string(total) + " files");
    });
    progress.Finish();
  }
  if (!profile.ok()) {
    err << "systolic import: " << profile.status().message() << "\n";
    return 1;
  }
  absl::Status written = trace::WriteProfileFile(*profile, output);
  if (!written.ok()) {
    err << "systolic import: " << written.message() << "\n";
    return 1;
  }
  if (args.Has("json")) {
    out << DumpReportJson(input, output, report).dump(2) << "\n";
  } else {
    PrintDumpReport(output, report, out);
  }
  return 0;
}

int RunImport(const CliArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> inputs;
  const std::optional<std::string> output = args.OutputPath(&inputs);
  if (inputs.size() != 1 || !output) {
    err << "systolic import: give one .xplane.pb file or XLA dump folder and -o OUT\n";
    return 2;
  }
  std::error_code error;
  if (std::filesystem::is_directory(inputs[0], error)) {
    return ImportDumpFolder(args, inputs[0], *output, out, err);
  }
  trace::XSpaceImportReport report;
  trace::XSpaceProgramsReport programs;
  absl::StatusOr<trace::Profile> profile =
      trace::ImportXSpaceFileWithPrograms(inputs[0], &report, &programs);
  if (!profile.ok()) {
    err << "systolic import: " << profile.status().message() << "\n";
    return 1;
  }
  absl::Status written = trace::WriteProfileFile(*profile, *output);
  if (!written.ok()) {
    err << "systolic import: " << written.message() << "\n";
    return 1;
  }
  if (args.Has("json")) {
    nlohmann::json program_list = nlohmann::json::array();
    for (const trace::ProgramRecord& program : profile->programs) {
      program_list.push_back(
          {{"id", uint64_t(program.id)},  // XLA's program ids are unsigned fingerprints
           {"name", program.name},
           {"instructions", program.snapshots.empty() ? 0 : program.snapshots.back().instruction_count}});
    }
    nlohmann::json j = {{"input", inputs[0]},
                        {"output", *output},
                        {"device_planes", report.device_planes},
                        {"host_planes", report.host_planes},
                        {"events", report.events},
                        {"aggregated_events_skipped", report.aggregated_events_skipped},
                        {"skipped_planes", report.skipped_planes},
                        {"programs", program_list},
                        {"program_errors", programs.errors},
                        {"warnings", report.warnings}};
    out << j.dump(2) << "\n";
    return 0;
  }
  out << *output << ": " << report.device_planes << " device planes, " << report.host_planes
      << " host planes, " << report.events << " events, " << programs.programs << " programs\n";
  for (const trace::ProgramRecord& program : profile->programs) {
    out << "  program " << program.name << " (" << uint64_t(program.id) << "): "
        << (program.snapshots.empty() ? 0 : program.snapshots.back().instruction_count)
        << " instructions\n";
  }
  for (const std::string& plane : report.skipped_planes) {
    if (plane != "/host:metadata") out << "skipped plane " << plane << "\n";
  }
  for (const std::string& e : programs.errors) out << "error: " << e << "\n";
  for (const std::string& w : report.warnings) out << "warning: " << w << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "import",
    .summary = "convert an XSpace profile (.xplane.pb from JAX / TensorFlow / PyTorch-XLA, with "
               "the programs of its metadata plane) or "
               "an XLA dump folder (every module with XLA's passes as stages)",
    .options = {{"output", "OUT", "the profile file to write (or -o OUT)"},
                {"json", "", "print the figures as JSON"}},
    .positional_usage = "X.xplane.pb|DUMP_DIR -o OUT",
    .run = RunImport,
});

}  // namespace
}  // namespace systolic::cli
