// `systolic profile FILE|--sample NAME [--chip P | --topology PRESET:SHAPE]
// [--steps N] -o OUT [--json]`: compiles, runs on the simulated chips and
// writes the profile the studio, `info` and `export` read.
//
// FILE: the program runs N steps (a multi-device program on the slice given,
// or else on the squarest slice that holds it); the profile holds the chip,
// the program with the module after every pass, its compile (and the cache
// hit of every later step) and the timeline of every step.
//
// --sample NAME: the lazy-tensor training sample (`systolic samples` lists
// them) trains N steps on the reference evaluator; every program it compiled
// is compiled again for the sample's slice (--topology instead; --chip
// changes the chip of the sample's topology), and the profile holds them
// all, every compile request with its cause, and each step's program run
// after the previous one on every device. A sample that states its model
// FLOPs also gets a line with them, the last step's simulated time and its
// MFU (model FLOPs per second over the chips' peak).
//
// A progress line shows the stage on a terminal.
//
// --json keys: file (null for a sample), sample (for a sample), module, chip, topology, steps,
// profile, programs, stages, compiles, events, span_ps, notes (what the timing
// assumed: loop trip counts, branches, costs it could not know), and for a
// sample with model FLOPs: model_flops_per_step, step_seconds, mfu.
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "app/cli/progress_line.h"
#include "app/cli/memory_limit_flag.h"
#include "app/cli/spmd_flag.h"
#include "core/analysis/model_flops_utilization.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/device/slice.h"
#include "core/lazy/topology_name.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/profile_summary.h"
#include "core/trace/profile_writer.h"
#include "nlohmann/json.hpp"
#include "samples/lazy/lazy_sample.h"
#include "samples/lazy/sample_profile.h"

namespace systolic::cli {
namespace {

constexpr char kProducer[] = "systolic profile";

// The chips to run on: one chip, or a slice of them.
struct Target {
  device::ChipSpec spec;
  std::optional<device::Slice> slice;
  const device::Slice* slice_or_null() const { return slice ? &*slice : nullptr; }
};

// --topology, or else one chip of --chip (default v4).
absl::StatusOr<Target> TargetOfFlags(const CliArgs& args) {
  const std::string chip = args.GetOr("chip", "v4");
  if (std::optional<std::string> topology = args.Get("topology")) {
    auto slice = device::LoadSlice(*topology, chip);
    if (!slice.ok()) return slice.status();
    device::ChipSpec spec = slice->spec;
    return Target{std::move(spec), *std::move(slice)};
  }
  auto spec = device::LoadChipSpec(chip);
  if (!spec.ok()) return spec.status();
  return Target{*std::move(spec), std::nullopt};
}

// --topology, or else the sample's own topology (with --chip's chip when
// given): one chip for a single-device sample.
absl::StatusOr<Target> TargetOfSample(const samples::LazySample& sample, const CliArgs& args) {
  if (args.Has("topology")) return TargetOfFlags(args);
  auto topology = lazy::TopologyName::Parse(sample.topology);
  if (!topology.ok()) return topology.status();
  auto spec = device::LoadChipSpec(args.GetOr("chip", topology->chip));
  if (!spec.ok()) return spec.status();
  if (topology->device_count() == 1) return Target{*std::move(spec), std::nullopt};
  auto slice = device::MakeSlice(*spec, topology->axes);
  if (!slice.ok()) return slice.status();
  return Target{*std::move(spec), *std::move(slice)};
}

std::string TargetName(const Target& target) {
  return target.slice ? target.slice->Name() : target.spec.name();
}

std::string SampleNames() {
  std::vector<std::string> names;
  for (const samples::LazySample& s : samples::LazySamples()) names.push_back(s.name);
  return absl::StrJoin(names, ", ");
}

// What was profiled, for the report.
struct Profiled {
  trace::Profile profile;
  std::string module;  // the program's name, or the sample's first program's
};

absl::StatusOr<Profiled> ProfileFile(const std::string& path, const Target& target, int64_t steps,
                                     const device::LoweringOptions& lowering,
                                     std::optional<bool> use_spmd_partitioning,
                                     ProgressLine& progress) {
  progress.Update("loading", 0.0, path);
  auto loaded = LoadProgramFile(path, /*verify=*/true);
  if (!loaded.ok()) return loaded.status();
  if (loaded->size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " holds ", loaded->size(), " modules; a profile is of one program"));
  }
  HloFileModule& entry = (*loaded)[0];
  if (!entry.module.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", entry.first_line, ": ", entry.module.status().message()));
  }
  HloModule& module = **entry.module;
  module.set_use_spmd_partitioning(use_spmd_partitioning);
  auto report = [&](double fraction, absl::string_view what) {
    progress.Update("profiling", fraction, std::string(what));
    return true;
  };
  auto profile = device::CompileRunAndProfile(module, target.spec, {.topology = target.slice},
                                              steps, kProducer, report, lowering);
  if (!profile.ok()) return profile.status();
  return Profiled{*std::move(profile), module.name()};
}

absl::StatusOr<Profiled> ProfileSample(const samples::LazySample& sample, const Target& target,
                                       int64_t steps, ProgressLine& progress) {
  progress.Update("training", 0.0, absl::StrCat(sample.name, ", ", steps, " steps"));
  auto report = [&](double fraction, absl::string_view what) {
    progress.Update("profiling", fraction, std::string(what));
    return true;
  };
  auto profile = samples::ProfileSample(sample, steps, target.spec, target.slice_or_null(),
                                        kProducer, report);
  if (!profile.ok()) return profile.status();
  std::string module = profile->programs.empty() ? "" : profile->programs.front().name;
  return Profiled{*std::move(profile), std::move(module)};
}

int RunProfile(const CliArgs& args, std::ostream& out, std::ostream& err) {
  auto usage_error = [&](const std::string& message) {
    err << "systolic profile: " << message << "\n";
    return 2;
  };
  std::vector<std::string> inputs;
  const std::optional<std::string> output = args.OutputPath(&inputs);
  const std::optional<std::string> sample_name = args.Get("sample");
  if (sample_name && !inputs.empty()) {
    return usage_error("give a program file or --sample NAME, not both");
  }
  if ((!sample_name && inputs.size() != 1) || !output) {
    return usage_error("give one program file and -o OUT (or --sample NAME -o OUT)");
  }
  const samples::LazySample* sample = nullptr;
  if (sample_name) {
    sample = samples::FindLazySample(*sample_name);
    if (sample == nullptr) {
      return usage_error(
          absl::StrCat("no sample named '", *sample_name, "'; the samples: ", SampleNames()));
    }
  }
  // A file runs 3 steps, a sample as many as it trains by default.
  const int64_t default_steps = sample ? samples::SampleRunOptions{}.steps : 3;
  absl::StatusOr<int64_t> steps = args.GetInt("steps", default_steps);
  if (!steps.ok() || *steps < 1) return usage_error("--steps needs a positive number");
  absl::StatusOr<Target> target = sample ? TargetOfSample(*sample, args) : TargetOfFlags(args);
  if (!target.ok()) return usage_error(std::string(target.status().message()));
  absl::StatusOr<std::optional<bool>> spmd = SpmdFlag(args);
  if (!spmd.ok()) return usage_error(std::string(spmd.status().message()));
  if (absl::Status limit = ApplyMemoryLimitFlag(args); !limit.ok()) {
    return usage_error(std::string(limit.message()));
  }
  device::LoweringOptions lowering;
  if (args.Has("trip-count")) {
    absl::StatusOr<int64_t> trips = args.GetInt("trip-count", 1);
    if (!trips.ok() || *trips < 0) return usage_error("--trip-count needs a number >= 0");
    lowering.unknown_trip_count = *trips;
  }

  ProgressLine progress;
  auto fail = [&](absl::string_view message) {
    progress.Finish();
    err << "systolic profile: " << message << "\n";
    return 1;
  };
  absl::StatusOr<Profiled> profiled = sample ? ProfileSample(*sample, *target, *steps, progress)
                                             : ProfileFile(inputs[0], *target, *steps, lowering,
                                                           *spmd, progress);
  if (!profiled.ok()) return fail(profiled.status().message());
  const trace::Profile& profile = profiled->profile;
  progress.Update("writing", 1.0, *output);
  if (absl::Status written = trace::WriteProfileFile(profile, *output); !written.ok()) {
    return fail(written.message());
  }
  progress.Finish();

  const trace::ProfileSummary summary = trace::SummarizeProfile(profile);
  const int64_t span_ps = summary.span.duration_ps();
  // A sample that states its model FLOPs gets its MFU on the target's chips.
  std::optional<analysis::StepUtilization> utilization;
  if (sample && sample->model_flops_per_step > 0) {
    const int64_t chips = target->slice ? target->slice->topology.chip_count() : 1;
    utilization = analysis::ModelFlopsUtilization(profile, sample->model_flops_per_step, chips);
  }
  if (args.Has("json")) {
    nlohmann::json j{{"file", sample ? nlohmann::json() : nlohmann::json(inputs[0])},
                     {"module", profiled->module},
                     {"chip", target->spec.name()},
                     {"topology", profile.topology.shape},
                     {"steps", *steps},
                     {"profile", *output},
                     {"programs", summary.programs},
                     {"stages", summary.stages},
                     {"compiles", summary.compiles},
                     {"events", summary.events},
                     {"span_ps", span_ps},
                     {"notes", profile.info.notes}};
    if (sample) j["sample"] = sample->name;
    if (utilization) {
      j["model_flops_per_step"] = utilization->model_flops;
      j["step_seconds"] = utilization->step_seconds;
      j["mfu"] = utilization->mfu();
    }
    out << j.dump(2) << "\n";
    return 0;
  }
  out << *output << ": " << (sample ? sample->name : profiled->module) << " on "
      << TargetName(*target) << ", " << *steps << (*steps == 1 ? " step" : " steps") << "; "
      << summary.programs << (summary.programs == 1 ? " program, " : " programs, ")
      << summary.stages << " stages, " << summary.compiles << " compiles ("
      << summary.cache_misses << (summary.cache_misses == 1 ? " miss), " : " misses), ")
      << summary.events << " events over " << trace::FormatDurationPs(span_ps) << "\n";
  if (utilization) {
    out << absl::StrFormat(
        "model FLOPs per step: %.4g (6 x parameters x tokens + attention); step %d: %s "
        "simulated, %.4g TFLOP/s, MFU %.2f%% of %d x %s (%.1f TFLOP/s each)\n",
        utilization->model_flops, utilization->step,
        trace::FormatDurationPs(int64_t(utilization->step_seconds * 1e12)),
        utilization->model_flops_per_second() / 1e12, 100 * utilization->mfu(),
        utilization->chips, profile.chip.name, utilization->peak_flops_per_second / 1e12);
  }
  for (const std::string& note : profile.info.notes) out << "note: " << note << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "profile",
    .summary = "compile a program or train a lazy sample, run it on simulated chips, write its "
               "profile",
    .options = {{"sample", "NAME", "train a lazy-tensor sample instead of a file (see `samples`)"},
                {"chip", "P", "chip preset or spec file (default v4; for a sample, its own)"},
                {"topology", "PRESET:SHAPE",
                 "run on a slice of chips, e.g. v5e:4x4 (for a sample, instead of its own)"},
                {"steps", "N",
                 "steps to run (default 3; a sample: as many as it trains by default); the "
                 "first compiles, the rest hit the cache unless the program changes"},
                {"output", "OUT", "the profile file to write (or -o OUT)"},
                SpmdFlagOption(),
                MemoryLimitFlagOption(),
                {"trip-count", "N",
                 "iterations of a while loop whose trip count the program does not give "
                 "(default: 1, with a warning)"},
                {"json", "", "print JSON (keys in the command's source header)"}},
    .positional_usage = "FILE|--sample NAME -o OUT",
    .run = RunProfile,
});

}  // namespace
}  // namespace systolic::cli
