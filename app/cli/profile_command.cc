// `systolic profile FILE [--chip P | --topology PRESET:SHAPE] [--steps N] -o OUT
// [--json]`: compiles the program, runs it for N steps on the simulated chip
// (a multi-device program on the slice given, or else on the squarest slice
// that holds it) and writes
// the profile the studio, `info` and `export` read: the chip, the program
// with the module after every pass, its compile (and the cache hit of every
// later step) and the timeline of every step. A progress line shows the
// stage on a terminal.
//
// --json keys: file, module, chip, topology, steps, profile, programs, stages, compiles,
// events, span_ps.
#include "absl/strings/str_cat.h"
#include "app/cli/cli_command.h"
#include "app/cli/progress_line.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/run_profile.h"
#include "core/device/slice.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/profile_summary.h"
#include "core/trace/profile_writer.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

constexpr char kProducer[] = "systolic profile";

int RunProfile(const CliArgs& args, std::ostream& out, std::ostream& err) {
  auto usage_error = [&](const std::string& message) {
    err << "systolic profile: " << message << "\n";
    return 2;
  };
  std::vector<std::string> inputs;
  const std::optional<std::string> output = args.OutputPath(&inputs);
  if (inputs.size() != 1 || !output) return usage_error("give one program file and -o OUT");
  const std::string& path = inputs[0];
  absl::StatusOr<int64_t> steps = args.GetInt("steps", 3);
  if (!steps.ok() || *steps < 1) return usage_error("--steps needs a positive number");
  absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec(args.GetOr("chip", "v4"));
  if (!spec.ok()) return usage_error(std::string(spec.status().message()));
  std::optional<device::Slice> slice;
  if (std::optional<std::string> topology = args.Get("topology")) {
    auto loaded = device::LoadSlice(*topology, args.GetOr("chip", "v4"));
    if (!loaded.ok()) return usage_error(std::string(loaded.status().message()));
    *spec = loaded->spec;
    slice = *std::move(loaded);
  }

  ProgressLine progress;
  auto fail = [&](absl::string_view message) {
    progress.Finish();
    err << "systolic profile: " << message << "\n";
    return 1;
  };
  progress.Update("loading", 0.0, path);
  auto loaded = LoadProgramFile(path, /*verify=*/true);
  if (!loaded.ok()) return fail(loaded.status().message());
  if (loaded->size() != 1) {
    return fail(absl::StrCat(path, " holds ", loaded->size(),
                             " modules; a profile is of one program"));
  }
  HloFileModule& entry = (*loaded)[0];
  if (!entry.module.ok()) {
    return fail(absl::StrCat(path, ":", entry.first_line, ": ", entry.module.status().message()));
  }
  const HloModule& module = **entry.module;
  auto report = [&](double fraction, absl::string_view what) {
    progress.Update("profiling", fraction, std::string(what));
    return true;
  };
  absl::StatusOr<trace::Profile> profile =
      slice ? device::CompileRunAndProfile(module, *slice, *steps, kProducer, report)
            : device::CompileRunAndProfile(module, *spec, *steps, kProducer, report);
  if (!profile.ok()) return fail(profile.status().message());
  progress.Update("writing", 1.0, *output);
  if (absl::Status written = trace::WriteProfileFile(*profile, *output); !written.ok()) {
    return fail(written.message());
  }
  progress.Finish();

  const trace::ProfileSummary summary = trace::SummarizeProfile(*profile);
  const int64_t span_ps = summary.span.duration_ps();
  if (args.Has("json")) {
    out << nlohmann::json{{"file", path},
                          {"module", module.name()},
                          {"chip", spec->name()},
                          {"topology", profile->topology.shape},
                          {"steps", *steps},
                          {"profile", *output},
                          {"programs", summary.programs},
                          {"stages", summary.stages},
                          {"compiles", summary.compiles},
                          {"events", summary.events},
                          {"span_ps", span_ps}}
               .dump(2)
        << "\n";
    return 0;
  }
  out << *output << ": " << module.name() << " on " << spec->name() << ", " << *steps
      << (*steps == 1 ? " step" : " steps") << "; " << summary.stages << " stages, "
      << summary.compiles << " compiles, " << summary.events << " events over "
      << trace::FormatDurationPs(span_ps) << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "profile",
    .summary = "compile a program, run it for some steps on a simulated chip, write its profile",
    .options = {{"chip", "P", "chip preset or spec file (default v4)"},
                {"topology", "PRESET:SHAPE", "run on a slice of chips, e.g. v5e:4x4"},
                {"steps", "N", "steps to run (default 3): the first compiles, the rest hit the cache"},
                {"output", "OUT", "the profile file to write (or -o OUT)"},
                {"json", "", "print JSON (keys in the command's source header)"}},
    .positional_usage = "FILE -o OUT",
    .run = RunProfile,
});

}  // namespace
}  // namespace systolic::cli
