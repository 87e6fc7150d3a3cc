// `systolic import X.xplane.pb -o OUT [--json]`: a profile from JAX,
// TensorFlow or PyTorch/XLA (an XSpace) saved as a Systolic profile.
//
// --json keys: input, output, device_planes, host_planes, events,
// aggregated_events_skipped, skipped_planes, warnings.
#include "app/cli/cli_command.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xspace_importer.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

int RunImport(const CliArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> inputs;
  const std::optional<std::string> output = args.OutputPath(&inputs);
  if (inputs.size() != 1 || !output) {
    err << "systolic import: give one .xplane.pb file and -o OUT\n";
    return 2;
  }
  trace::XSpaceImportReport report;
  absl::StatusOr<trace::Profile> profile = trace::ImportXSpaceFile(inputs[0], &report);
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
    nlohmann::json j = {{"input", inputs[0]},
                        {"output", *output},
                        {"device_planes", report.device_planes},
                        {"host_planes", report.host_planes},
                        {"events", report.events},
                        {"aggregated_events_skipped", report.aggregated_events_skipped},
                        {"skipped_planes", report.skipped_planes},
                        {"warnings", report.warnings}};
    out << j.dump(2) << "\n";
    return 0;
  }
  out << *output << ": " << report.device_planes << " device planes, " << report.host_planes
      << " host planes, " << report.events << " events\n";
  for (const std::string& plane : report.skipped_planes) out << "skipped plane " << plane << "\n";
  for (const std::string& w : report.warnings) out << "warning: " << w << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "import",
    .summary = "convert an XSpace profile (.xplane.pb from JAX / TensorFlow / PyTorch-XLA)",
    .options = {{"output", "OUT", "the profile file to write (or -o OUT)"},
                {"json", "", "print the figures as JSON"}},
    .positional_usage = "X.xplane.pb -o OUT",
    .run = RunImport,
});

}  // namespace
}  // namespace systolic::cli
