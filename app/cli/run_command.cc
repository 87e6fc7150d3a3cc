// `systolic run FILE [--chip P | --topology PRESET:SHAPE] [--replicas N]
// [--partitions M] [--seed S] [--args a.npy,...] [--out DIR] [--timing-only]
// [--compare-reference] [--profile FILE] [--json]`: compiles the program for
// one chip, lowers it onto the chip's units and simulates it. Prints the
// outputs (the evaluator runs the compiled module: the device's values are
// the evaluator's), the simulated time, the achieved TFLOP/s against the
// chip's peak and a per-op table (time, % of the run, busiest unit, FLOPs,
// bytes, utilisation of that unit).
//
// A program on several devices (replicas x partitions) runs on a slice:
// device d on chip d, every device the same program, each collective timed
// from its transfers on the ICI links and listed with its bytes and time.
// Each device gets its own random arguments (or the same .npy files) and
// prints its outputs; with --out they are device<d>_out*.npy.
//
// A module laid out across partitions (sharding annotations, more than one
// partition) is partitioned into the program every partition runs. It takes
// whole arguments (seeded, or .npy files of the full shapes), each split
// among the chips as its parameter's sharding says, and prints its results
// gathered whole, so they compare directly with `systolic eval` of the same
// file; with several replicas each replica's result is printed
// (replica<r>_out*.npy, and replica_outputs in the JSON).
//
//   --timing-only        no values: only shapes are used, so programs too big
//                        for the host can still be timed
//   --compare-reference  also runs the original (uncompiled) module on the
//                        evaluator and prints the largest absolute and
//                        relative difference per output
//   --profile FILE       writes a profile (chip, pass snapshots, timeline)
//                        that `systolic info` / `export` and the studio read
//   --trip-count N       iterations of a while loop whose trip count neither
//                        its backend_config nor its induction variable gives
//
// --json: one object {file, module, chip, simulated_seconds, cycles, flops,
// tflops, peak_tflops, ops: [{instruction, unit, seconds, percent, flops,
// bytes, utilization}], outputs: [{index, shape, value, npy, max_abs_diff,
// max_rel_diff}], max_abs_diff, max_rel_diff, profile}; the diffs only with
// --compare-reference, outputs not with --timing-only. Each op also has
// executions (its runs per program run: the trip counts of the loops around
// it) and parent (the while / conditional / call it ran in, or ""), and
// warnings lists what the timing assumed (trip counts, branches). On a slice also
// topology, devices, replicas, partitions, collectives: [{instruction,
// collective, bytes, groups, transfers, simulated_seconds}], and
// device_outputs: [{device, replica, partition, outputs}] instead of
// outputs. A file with several modules runs each: {file, modules: [one
// object per module]}.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "app/cli/device_arguments.h"
#include "app/cli/literal_outputs.h"
#include "app/cli/progress_line.h"
#include "app/cli/memory_limit_flag.h"
#include "app/cli/spmd_flag.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/ici_collectives.h"
#include "core/device/program_run.h"
#include "core/device/program_timing.h"
#include "core/device/slice.h"
#include "core/device/slice_timing.h"
#include "core/eval/literal_format.h"
#include "core/eval/npy_file.h"
#include "core/hlo/hlo_computation.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/profile_writer.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

struct Difference {
  double abs = 0;
  double rel = 0;
};

// NaN against NaN is no difference; NaN against a number is infinite.
Difference Compare(const Literal& device, const Literal& reference) {
  Difference d;
  if (device.shape().IsTuple() || reference.shape().IsTuple() ||
      device.element_count() != reference.element_count()) {
    d.abs = d.rel = std::numeric_limits<double>::infinity();
    return d;
  }
  for (int64_t i = 0; i < device.element_count(); ++i) {
    const double a = device.GetAsDouble(i);
    const double b = reference.GetAsDouble(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (a == b) continue;  // equal infinities too
    const double abs = std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::infinity()
                                                      : std::fabs(a - b);
    d.abs = std::max(d.abs, abs);
    d.rel = std::max(d.rel, std::fabs(b) > 0 ? abs / std::fabs(b) : abs);
  }
  return d;
}

std::string FormatBytes(double bytes) {
  if (bytes >= 1 << 30) return absl::StrFormat("%.2f GiB", bytes / (1 << 30));
  if (bytes >= 1 << 20) return absl::StrFormat("%.2f MiB", bytes / (1 << 20));
  if (bytes >= 1 << 10) return absl::StrFormat("%.1f KiB", bytes / (1 << 10));
  return absl::StrFormat("%.0f B", bytes);
}

std::string FormatSeconds(double s) {
  if (s >= 1) return absl::StrFormat("%.3f s", s);
  if (s >= 1e-3) return absl::StrFormat("%.3f ms", s * 1e3);
  if (s >= 1e-6) return absl::StrFormat("%.3f us", s * 1e6);
  return absl::StrFormat("%.1f ns", s * 1e9);
}

void PrintTiming(const device::ProgramTiming& t, std::ostream& out) {
  out << absl::StrFormat("simulated time: %s (%d cycles on %s)\n", FormatSeconds(t.seconds),
                         t.cycles, t.chip);
  out << absl::StrFormat("achieved: %.3f TFLOP/s of %.1f TFLOP/s peak (%.2f%%)\n",
                         t.flops_per_second / 1e12, t.peak_flops_per_second / 1e12,
                         t.peak_flops_per_second > 0
                             ? 100 * t.flops_per_second / t.peak_flops_per_second
                             : 0.0);
  // Rows under the loop, branch or call they ran in, indented; slowest first.
  size_t width = 11;
  for (const device::OpTiming& op : t.ops) {
    width = std::max(width, op.instruction.size() + 2 * size_t(std::count_if(
        t.ops.begin(), t.ops.end(), [&](const auto& o) { return o.instruction == op.parent; })));
  }
  width = std::min<size_t>(width, 60);
  out << absl::StrFormat("%-*s %12s %7s %-7s %12s %11s %6s %8s\n", int(width), "instruction",
                         "time", "%", "unit", "FLOPs", "bytes", "util", "runs");
  auto print_rows = [&](auto&& self, const std::string& parent, int depth) -> void {
    std::vector<const device::OpTiming*> rows;
    for (const device::OpTiming& op : t.ops) {
      if (op.parent == parent) rows.push_back(&op);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
      return a->seconds > b->seconds;
    });
    for (const auto* op : rows) {
      out << absl::StrFormat("%-*s %12s %6.2f%% %-7s %12.4g %11s %5.1f%% %8d\n", int(width),
                             std::string(2 * depth, ' ') + op->instruction,
                             FormatSeconds(op->seconds), op->percent, op->unit, op->flops,
                             FormatBytes(double(op->bytes)), 100 * op->utilization,
                             op->executions);
      if (depth < 32) self(self, op->instruction, depth + 1);
    }
  };
  print_rows(print_rows, "", 0);
  for (const std::string& warning : t.warnings) out << "warning: " << warning << "\n";
}

nlohmann::json TimingJson(const device::ProgramTiming& t) {
  nlohmann::json ops = nlohmann::json::array();
  for (const device::OpTiming& op : t.ops) {
    ops.push_back({{"instruction", op.instruction},
                   {"unit", op.unit},
                   {"seconds", op.seconds},
                   {"percent", op.percent},
                   {"flops", op.flops},
                   {"bytes", op.bytes},
                   {"utilization", op.utilization},
                   {"executions", op.executions},
                   {"parent", op.parent}});
  }
  return {{"chip", t.chip},
          {"simulated_seconds", t.seconds},
          {"cycles", t.cycles},
          {"flops", t.flops},
          {"tflops", t.flops_per_second / 1e12},
          {"peak_tflops", t.peak_flops_per_second / 1e12},
          {"ops", ops},
          {"warnings", t.warnings}};
}

nlohmann::json CollectivesJson(const device::SliceTiming& t) {
  nlohmann::json collectives = nlohmann::json::array();
  for (const device::CollectiveTiming& c : t.collectives) {
    collectives.push_back({{"instruction", c.instruction},
                           {"collective", device::IciCollectiveName(c.collective)},
                           {"bytes", c.bytes},
                           {"groups", c.groups},
                           {"transfers", c.transfers.size()},
                           {"simulated_seconds", c.seconds()}});
  }
  return collectives;
}

void PrintCollectives(const device::SliceTiming& t, std::ostream& out) {
  out << absl::StrFormat("%-28s %-18s %11s %6s %9s %12s\n", "collective", "kind", "bytes",
                         "groups", "transfers", "time");
  for (const device::CollectiveTiming& c : t.collectives) {
    out << absl::StrFormat("%-28s %-18s %11s %6d %9d %12s\n", c.instruction,
                           device::IciCollectiveName(c.collective), FormatBytes(double(c.bytes)),
                           c.groups, c.transfers.size(), FormatSeconds(c.seconds()));
  }
}

struct RunSettings {
  std::string path;
  int64_t seed = 0;
  bool timing_only = false;
  bool compare = false;
  bool json = false;
  bool latency_hiding = true;  // off: --no-latency-hiding
  std::vector<std::string> arg_files;
  std::string out_dir;
  std::optional<std::string> profile;
  bool several = false;  // the file holds several modules
  std::optional<device::Slice> slice;  // --topology
  std::optional<int64_t> replicas, partitions;
  device::LoweringOptions lowering;  // --trip-count
  std::optional<bool> use_spmd_partitioning;  // --spmd
};

// Runs one module of the file; fills `report` (printed by the caller with
// --json) or prints the text report. Returns the exit code.
int RunModule(HloFileModule& entry, const RunSettings& settings, const device::ChipSpec& spec,
              ProgressLine& progress, nlohmann::json& report, std::ostream& out,
              std::ostream& err) {
  const std::string& path = settings.path;
  const std::string where = absl::StrCat(path, ":", entry.first_line);
  auto fail = [&](const std::string& message) {
    progress.Finish();
    err << where << ": " << message << "\n";
    return 1;
  };
  if (!entry.module.ok()) return fail(std::string(entry.module.status().message()));
  std::unique_ptr<HloModule> module = std::move(entry.module).value();
  const std::string name = module->name();
  if (settings.several && !settings.json) out << "== " << name << " (" << where << ")\n";
  const HloComputation* entry_computation = module->entry_computation();
  if (entry_computation == nullptr) return fail(name + ": the module has no entry computation");
  module->set_use_spmd_partitioning(settings.use_spmd_partitioning);

  if (!settings.arg_files.empty() &&
      int64_t(settings.arg_files.size()) != entry_computation->num_parameters()) {
    progress.Finish();
    err << "systolic run: --args gives " << settings.arg_files.size() << " files, the entry takes "
        << entry_computation->num_parameters() << " parameters\n";
    return 2;
  }
  device::RunRequest request;
  request.devices = {settings.replicas, settings.partitions, settings.slice};
  request.compile.latency_hiding = settings.latency_hiding;
  request.lowering = settings.lowering;
  request.compute_values = !settings.timing_only;
  request.compare_reference = settings.compare;
  request.seed = uint64_t(settings.seed);
  if (!settings.arg_files.empty() || !entry.arguments.empty()) {
    auto loaded = LoadDeviceArguments(*entry_computation, settings.arg_files, entry.arguments,
                                      settings.seed, 1);
    if (!loaded.ok()) return fail(std::string(loaded.status().message()));
    request.arguments = *std::move(loaded);
  }
  auto ran = device::CompileAndRun(std::move(module), spec, std::move(request),
                                   [&](double fraction, absl::string_view what) {
                                     progress.Update(std::string(what), fraction, name);
                                     return true;
                                   });
  if (!ran.ok()) return fail(std::string(ran.status().message()));
  const device::ProgramRun& run = *ran;
  const SpmdDeviceCounts counts = run.plan.counts;
  const int64_t devices = run.plan.devices();
  const bool gathered = run.gathered;
  const device::ProgramTiming& timing = run.timing();

  report = {{"file", path}, {"module", name}};
  report.update(TimingJson(timing));
  if (run.on_slice) {
    const device::SliceTiming& t = run.on_slice->timing;
    report["topology"] = t.slice;
    report["devices"] = devices;
    report["replicas"] = counts.replicas;
    report["partitions"] = counts.partitions;
    report["collectives"] = CollectivesJson(t);
  }

  if (!settings.timing_only) {
    const std::vector<Literal>* results = &run.results;
    const std::vector<Literal>* reference = settings.compare ? &run.reference : nullptr;
    progress.Finish();
    Difference worst;
    nlohmann::json per_device = nlohmann::json::array();
    // One result per device, or per replica once gathered.
    const int64_t results_count = int64_t(results->size());
    for (int64_t d = 0; d < results_count; ++d) {
      const std::vector<LiteralLeaf> outputs = LeavesOf((*results)[d]);
      const std::vector<LiteralLeaf> expected =
          reference ? LeavesOf((*reference)[d]) : std::vector<LiteralLeaf>{};
      if (reference && expected.size() != outputs.size()) {
        return fail(absl::StrCat(name, ": the reference has ", expected.size(),
                                 " outputs, the device ", outputs.size()));
      }
      if (!settings.json && gathered && results_count > 1) {
        out << "replica " << d << " (gathered from " << counts.partitions << " partitions):\n";
      } else if (!settings.json && results_count > 1) {
        out << "device " << d << " (replica " << d / counts.partitions << ", partition "
            << d % counts.partitions << "):\n";
      }
      nlohmann::json outs = nlohmann::json::array();
      for (size_t i = 0; i < outputs.size(); ++i) {
        const LiteralLeaf& o = outputs[i];
        const std::string text = FormatLiteral(*o.value);
        nlohmann::json oj = {{"index", o.index}, {"shape", o.value->shape().ToString()}, {"value", text}};
        if (!settings.out_dir.empty() && o.value->shape().IsArray()) {
          const std::string file_name =
              (results_count == 1  ? std::string()
               : gathered ? absl::StrCat("replica", d, "_")
                          : absl::StrCat("device", d, "_")) + NpyName(o.index);
          const std::string file = (std::filesystem::path(settings.out_dir) / file_name).string();
          if (absl::Status s = WriteNpyFile(file, *o.value); !s.ok()) {
            err << "systolic run: " << s.message() << "\n";
            return 1;
          }
          oj["npy"] = file;
        }
        if (!settings.json) {
          if (outputs.size() > 1) out << "output " << o.index << ": ";
          out << text << "\n";
        }
        if (reference) {
          const Difference diff = Compare(*o.value, *expected[i].value);
          worst.abs = std::max(worst.abs, diff.abs);
          worst.rel = std::max(worst.rel, diff.rel);
          oj["max_abs_diff"] = diff.abs;
          oj["max_rel_diff"] = diff.rel;
          if (!settings.json) {
            out << absl::StrFormat("  vs reference %s: max abs diff %g, max rel diff %g\n",
                                   o.index, diff.abs, diff.rel);
          }
        }
        outs.push_back(oj);
      }
      if (gathered) {
        per_device.push_back({{"replica", d}, {"outputs", outs}});
      } else {
        per_device.push_back({{"device", d},
                              {"replica", d / counts.partitions},
                              {"partition", d % counts.partitions},
                              {"outputs", outs}});
      }
    }
    // One result keeps the flat form; several list theirs.
    if (results_count == 1) {
      report["outputs"] = per_device[0]["outputs"];
    } else if (gathered) {
      report["replica_outputs"] = per_device;
    } else {
      report["device_outputs"] = per_device;
    }
    if (reference) {
      report["max_abs_diff"] = worst.abs;
      report["max_rel_diff"] = worst.rel;
    }
  }
  progress.Finish();

  if (const std::optional<std::string>& profile_path = settings.profile) {
    const trace::Profile profile = run.Profile(1, "systolic run");
    if (absl::Status s = trace::WriteProfileFile(profile, *profile_path); !s.ok()) {
      err << "systolic run: " << s.message() << "\n";
      return 1;
    }
    report["profile"] = *profile_path;
    if (!settings.json) out << "profile: " << *profile_path << "\n";
  }
  if (!settings.json) {
    if (run.on_slice) {
      out << absl::StrFormat("slice: %s, %d devices (%d replicas x %d partitions)\n",
                             run.on_slice->timing.slice, devices, counts.replicas,
                             counts.partitions);
    }
    PrintTiming(timing, out);
    if (run.on_slice && !run.on_slice->timing.collectives.empty()) {
      PrintCollectives(run.on_slice->timing, out);
    }
  }
  return 0;
}

int RunRun(const CliArgs& args, std::ostream& out, std::ostream& err) {
  auto usage_error = [&](const std::string& message) {
    err << "systolic run: " << message << "\n";
    return 2;
  };
  if (args.positional().size() != 1) return usage_error("give one program file");
  const std::string path = args.positional()[0];
  absl::StatusOr<int64_t> seed = args.GetInt("seed", 0);
  if (!seed.ok()) return usage_error(std::string(seed.status().message()));
  RunSettings settings;
  for (const char* flag : {"replicas", "partitions"}) {
    if (!args.Has(flag)) continue;
    absl::StatusOr<int64_t> n = args.GetInt(flag, 1);
    if (!n.ok() || *n < 1) return usage_error(absl::StrCat("--", flag, " needs a positive number"));
    (std::string(flag) == "replicas" ? settings.replicas : settings.partitions) = *n;
  }
  absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec(args.GetOr("chip", "v4"));
  if (!spec.ok()) return usage_error(std::string(spec.status().message()));
  if (std::optional<std::string> topology = args.Get("topology")) {
    auto slice = device::LoadSlice(*topology, args.GetOr("chip", "v4"));
    if (!slice.ok()) return usage_error(std::string(slice.status().message()));
    if (args.Has("chip") && slice->spec.name() != spec->name()) {
      return usage_error(absl::StrCat("--topology ", *topology, " is of chip ",
                                      slice->spec.name(), ", --chip says ", spec->name()));
    }
    *spec = slice->spec;
    settings.slice = *std::move(slice);
  }
  settings.path = path;
  settings.seed = *seed;
  settings.json = args.Has("json");
  settings.timing_only = args.Has("timing-only");
  settings.latency_hiding = !args.Has("no-latency-hiding");
  settings.compare = args.Has("compare-reference");
  settings.arg_files = args.GetList("args");
  settings.out_dir = args.GetOr("out", "");
  settings.profile = args.Get("profile");
  absl::StatusOr<std::optional<bool>> spmd = SpmdFlag(args);
  if (!spmd.ok()) return usage_error(std::string(spmd.status().message()));
  if (absl::Status limit = ApplyMemoryLimitFlag(args); !limit.ok()) {
    return usage_error(std::string(limit.message()));
  }
  settings.use_spmd_partitioning = *spmd;
  if (args.Has("trip-count")) {
    absl::StatusOr<int64_t> trips = args.GetInt("trip-count", 1);
    if (!trips.ok() || *trips < 0) return usage_error("--trip-count needs a number >= 0");
    settings.lowering.unknown_trip_count = *trips;
  }
  if (settings.timing_only &&
      (settings.compare || !settings.out_dir.empty() || !settings.arg_files.empty())) {
    return usage_error("--timing-only computes no values: drop --compare-reference, --out and --args");
  }
  if (!settings.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(settings.out_dir, ec);
    if (ec) return usage_error(absl::StrCat("cannot create ", settings.out_dir, ": ", ec.message()));
  }

  ProgressLine progress;
  progress.Update("loading", 0.0, path);
  auto loaded = LoadProgramFile(path, /*verify=*/true);
  if (!loaded.ok()) {
    progress.Finish();
    err << "systolic run: " << loaded.status().message() << "\n";
    return 1;
  }
  settings.several = loaded->size() > 1;
  if (settings.several &&
      (!settings.arg_files.empty() || !settings.out_dir.empty() || settings.profile)) {
    progress.Finish();
    return usage_error(absl::StrCat(path, " holds ", loaded->size(),
                                    " modules; --args, --out and --profile need one"));
  }
  nlohmann::json modules = nlohmann::json::array();
  int exit_code = 0;
  for (HloFileModule& entry : *loaded) {
    nlohmann::json report;
    const int code = RunModule(entry, settings, *spec, progress, report, out, err);
    if (code != 0) {
      exit_code = std::max(exit_code, code);
      continue;
    }
    modules.push_back(std::move(report));
  }
  progress.Finish();
  if (settings.json) {
    if (settings.several) {
      out << nlohmann::json{{"file", path}, {"modules", modules}}.dump(2) << "\n";
    } else if (!modules.empty()) {
      out << modules[0].dump(2) << "\n";
    }
  }
  return exit_code;
}

const CommandRegistration kRegistration({
    .name = "run",
    .summary = "compile a program, run it on a simulated chip or slice: outputs, simulated time, op table",
    .options = {{"chip", "P", "chip preset or spec file (default v4)"},
                {"topology", "PRESET:SHAPE",
                 "run on a slice of chips, e.g. v4:2x2x2 (device d on chip d); a multi-device "
                 "program without it runs on the squarest slice that holds it"},
                {"replicas", "N", "replicas (default: the module's)"},
                {"partitions", "M", "partitions (default: the module's)"},
                {"seed", "S", "seed of the random arguments (default 0)"},
                {"args", "A.npy,B.npy", "arguments from .npy files, one per parameter"},
                {"out", "DIR", "write every output as a .npy file in DIR"},
                {"timing-only", "", "shapes only: time the program without computing values"},
                {"compare-reference", "", "compare the outputs with the uncompiled module's"},
                {"no-latency-hiding", "",
                 "keep collectives synchronous (no start/done overlap with compute), to compare"},
                {"profile", "FILE", "write a profile with the timeline to FILE"},
                SpmdFlagOption(),
                MemoryLimitFlagOption(),
                {"trip-count", "N",
                 "iterations of a while loop whose trip count the program does not give "
                 "(default: 1, with a warning)"},
                {"json", "", "print one JSON object instead of text"}},
    .positional_usage = "FILE",
    .run = RunRun,
});

}  // namespace
}  // namespace systolic::cli
