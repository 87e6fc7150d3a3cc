// `systolic samples [NAME] [--steps N] [--json]`: the training programs
// written with the lazy front end. Without a name it lists them; with one it
// trains that sample on the reference evaluator and prints the loss per
// step, every compile with its cause, and the metrics report.
//
// --json keys, listing: samples [{name, topology, description}].
// --json keys, a run: sample, topology, devices, steps [{step, batch_size,
// loss}], compiles [{step, program_id, cache_hit, cause_kind, cause, source,
// fingerprint, compile_time_ns}], metrics_report, warnings.
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/trace/compile_event.h"
#include "nlohmann/json.hpp"
#include "samples/lazy/lazy_sample.h"

namespace systolic::cli {
namespace {

int List(const CliArgs& args, std::ostream& out) {
  const auto& samples = samples::LazySamples();
  if (args.Has("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const samples::LazySample& s : samples) {
      list.push_back({{"name", s.name}, {"topology", s.topology}, {"description", s.description}});
    }
    out << nlohmann::json{{"samples", list}}.dump(2) << "\n";
    return 0;
  }
  size_t name_width = 0, topology_width = 0;
  for (const samples::LazySample& s : samples) {
    name_width = std::max(name_width, s.name.size());
    topology_width = std::max(topology_width, s.topology.size());
  }
  for (const samples::LazySample& s : samples) {
    out << absl::StrFormat("%-*s  %-*s  %s\n", int(name_width), s.name, int(topology_width),
                           s.topology, s.description);
  }
  return 0;
}

nlohmann::json ToJson(const samples::TrainingLog& log) {
  nlohmann::json steps = nlohmann::json::array();
  for (const samples::TrainingStep& s : log.steps) {
    steps.push_back({{"step", s.step}, {"batch_size", s.batch_size}, {"loss", s.loss}});
  }
  nlohmann::json compiles = nlohmann::json::array();
  for (const trace::CompileEvent& e : log.compile_events) {
    compiles.push_back({{"step", e.step},
                        {"program_id", e.program_id},
                        {"cache_hit", e.cache_hit},
                        {"cause_kind", trace::RecompilationKindName(e.cause.kind)},
                        {"cause", e.cause.text},
                        {"source", e.source},
                        {"fingerprint", e.fingerprint},
                        {"compile_time_ns", e.compile_time_ns}});
  }
  return {{"sample", log.sample},     {"topology", log.topology},
          {"devices", log.devices},   {"steps", steps},
          {"compiles", compiles},     {"metrics_report", log.metrics_report},
          {"warnings", log.warnings}};
}

int RunSamples(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().empty()) return List(args, out);
  if (args.positional().size() > 1) {
    err << "systolic samples: give one sample name\n";
    return 2;
  }
  const samples::LazySample* sample = samples::FindLazySample(args.positional()[0]);
  if (sample == nullptr) {
    err << "systolic samples: no sample named '" << args.positional()[0]
        << "'; `systolic samples` lists them\n";
    return 2;
  }
  absl::StatusOr<int64_t> steps = args.GetInt("steps", 8);
  if (!steps.ok() || *steps < 1) {
    err << "systolic samples: --steps needs a positive number\n";
    return 2;
  }
  samples::SampleRunOptions options;
  options.steps = *steps;
  options.single_device = args.Has("single-device");
  absl::StatusOr<samples::TrainingLog> log = sample->run(options);
  if (!log.ok()) {
    err << "systolic samples: " << sample->name << ": " << log.status().message() << "\n";
    return 1;
  }
  if (args.Has("json")) {
    out << ToJson(*log).dump(2) << "\n";
    return 0;
  }
  out << log->ToString() << "\n" << log->metrics_report;
  return 0;
}

const CommandRegistration kRegistration({
    .name = "samples",
    .summary = "list the lazy-tensor training samples, or train one on the reference evaluator",
    .options = {{"steps", "N", "training steps (default 8)"},
                {"single-device", "", "train on one device with the whole batch"},
                {"json", "", "print JSON (keys in the command's source header)"}},
    .positional_usage = "[NAME]",
    .run = RunSamples,
});

}  // namespace
}  // namespace systolic::cli
