// `systolic run FILE [--chip P] [--seed S] [--args a.npy,...] [--out DIR]
// [--timing-only] [--compare-reference] [--profile FILE] [--json]`: compiles
// the program for one chip, lowers it onto the chip's units and simulates
// it. Prints the outputs (the evaluator runs the compiled module: the
// device's values are the evaluator's), the simulated time, the achieved
// TFLOP/s against the chip's peak and a per-op table (time, % of the run,
// busiest unit, FLOPs, bytes, utilisation of that unit).
//
//   --timing-only        no values: only shapes are used, so programs too big
//                        for the host can still be timed
//   --compare-reference  also runs the original (uncompiled) module on the
//                        evaluator and prints the largest absolute and
//                        relative difference per output
//   --profile FILE       writes a profile (chip, pass snapshots, timeline)
//                        that `systolic info` / `export` and the studio read
//
// --json: one object {file, module, chip, simulated_seconds, cycles, flops,
// tflops, peak_tflops, ops: [{instruction, unit, seconds, percent, flops,
// bytes, utilization}], outputs: [{index, shape, value, npy, max_abs_diff,
// max_rel_diff}], max_abs_diff, max_rel_diff, profile}; the diffs only with
// --compare-reference, outputs not with --timing-only. A file with several
// modules runs each: {file, modules: [one object per module]}.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "app/cli/literal_outputs.h"
#include "app/cli/progress_line.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/device/run_profile.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/literal_format.h"
#include "core/eval/npy_file.h"
#include "core/eval/random_arguments.h"
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
  std::vector<const device::OpTiming*> ops;
  for (const device::OpTiming& op : t.ops) ops.push_back(&op);
  std::stable_sort(ops.begin(), ops.end(), [](const auto* a, const auto* b) {
    return a->seconds > b->seconds;
  });
  size_t width = 11;
  for (const auto* op : ops) width = std::max(width, op->instruction.size());
  out << absl::StrFormat("%-*s %12s %7s %-7s %12s %11s %6s\n", int(width), "instruction", "time",
                         "%", "unit", "FLOPs", "bytes", "util");
  for (const auto* op : ops) {
    out << absl::StrFormat("%-*s %12s %6.2f%% %-7s %12.4g %11s %5.1f%%\n", int(width),
                           op->instruction, FormatSeconds(op->seconds), op->percent, op->unit,
                           op->flops, FormatBytes(double(op->bytes)), 100 * op->utilization);
  }
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
                   {"utilization", op.utilization}});
  }
  return {{"chip", t.chip},
          {"simulated_seconds", t.seconds},
          {"cycles", t.cycles},
          {"flops", t.flops},
          {"tflops", t.flops_per_second / 1e12},
          {"peak_tflops", t.peak_flops_per_second / 1e12},
          {"ops", ops}};
}

struct RunSettings {
  std::string path;
  int64_t seed = 0;
  bool timing_only = false;
  bool compare = false;
  bool json = false;
  std::vector<std::string> arg_files;
  std::string out_dir;
  std::optional<std::string> profile;
  bool several = false;  // the file holds several modules
};

// Runs one module of the file; fills `report` (printed by the caller with
// --json) or prints the text report. Returns the exit code.
int RunModule(HloFileModule& entry, const RunSettings& settings, const device::ChipSpec& spec_value,
              ProgressLine& progress, nlohmann::json& report, std::ostream& out,
              std::ostream& err) {
  const device::ChipSpec* spec = &spec_value;
  const std::string& path = settings.path;
  const std::vector<std::string>& arg_files = settings.arg_files;
  const std::string& out_dir = settings.out_dir;
  const bool timing_only = settings.timing_only;
  const bool json = settings.json;
  const int64_t* seed = &settings.seed;
  auto usage_error = [&](const std::string& message) {
    err << "systolic run: " << message << "\n";
    return 2;
  };
  const std::string where = absl::StrCat(path, ":", entry.first_line);
  if (!entry.module.ok()) {
    progress.Finish();
    err << where << ": " << entry.module.status().message() << "\n";
    return 1;
  }
  std::unique_ptr<HloModule> module = std::move(entry.module).value();
  const std::string name = module->name();
  if (settings.several && !json) out << "== " << name << " (" << where << ")\n";
  const HloComputation* entry_computation = module->entry_computation();
  if (entry_computation == nullptr) {
    progress.Finish();
    err << where << ": " << name << ": the module has no entry computation\n";
    return 1;
  }

  // Arguments: .npy files, one per parameter, or random from the seed.
  std::vector<Literal> arguments;
  if (!timing_only) {
    if (!arg_files.empty()) {
      if (int64_t(arg_files.size()) != entry_computation->num_parameters()) {
        progress.Finish();
        return usage_error(absl::StrCat("--args gives ", arg_files.size(),
                                        " files, the entry takes ",
                                        entry_computation->num_parameters(), " parameters"));
      }
      for (int64_t i = 0; i < entry_computation->num_parameters(); ++i) {
        const Shape& shape = entry_computation->parameter_instruction(i)->shape();
        std::optional<PrimitiveType> type;
        if (shape.IsArray()) type = shape.element_type();
        absl::StatusOr<Literal> literal = ReadNpyFile(arg_files[i], type);
        if (!literal.ok()) {
          progress.Finish();
          err << "systolic run: " << literal.status().message() << "\n";
          return 1;
        }
        arguments.push_back(*std::move(literal));
      }
    } else {
      arguments = MakeRandomArguments(*entry_computation, uint64_t(*seed), 0);
    }
  }
  std::unique_ptr<HloModule> original = settings.compare ? module->Clone() : nullptr;

  progress.Update("compiling", 0.2, name);
  absl::StatusOr<device::TimedCompilation> timed = device::CompileAndTime(std::move(module), *spec);
  if (!timed.ok()) {
    progress.Finish();
    err << where << ": " << name << ": " << timed.status().message() << "\n";
    return 1;
  }
  const device::ProgramTiming& timing = timed->timing;

  report = {{"file", path}, {"module", name}};
  report.update(TimingJson(timing));

  if (!timing_only) {
    EvaluatorOptions options;
    options.rng_seed = uint64_t(*seed);
    progress.Update("evaluating", 0.6, name);
    absl::StatusOr<Literal> result = HloEvaluator(options).Evaluate(*timed->compilation.module, arguments);
    if (!result.ok()) {
      progress.Finish();
      err << where << ": " << name << ": " << result.status().message() << "\n";
      return 1;
    }
    std::optional<Literal> reference;
    if (original) {
      progress.Update("reference", 0.8, name);
      absl::StatusOr<Literal> r = HloEvaluator(options).Evaluate(*original, arguments);
      if (!r.ok()) {
        progress.Finish();
        err << where << ": " << name << ": reference: " << r.status().message() << "\n";
        return 1;
      }
      reference = *std::move(r);
    }
    progress.Finish();
    const std::vector<LiteralLeaf> outputs = LeavesOf(*result);
    const std::vector<LiteralLeaf> expected = reference ? LeavesOf(*reference) : std::vector<LiteralLeaf>{};
    if (reference && expected.size() != outputs.size()) {
      err << where << ": " << name << ": the reference has " << expected.size()
          << " outputs, the device " << outputs.size() << "\n";
      return 1;
    }
    nlohmann::json outs = nlohmann::json::array();
    Difference worst;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const LiteralLeaf& o = outputs[i];
      const std::string text = FormatLiteral(*o.value);
      nlohmann::json oj = {{"index", o.index}, {"shape", o.value->shape().ToString()}, {"value", text}};
      if (!out_dir.empty() && o.value->shape().IsArray()) {
        const std::string file = (std::filesystem::path(out_dir) / NpyName(o.index)).string();
        if (absl::Status s = WriteNpyFile(file, *o.value); !s.ok()) {
          err << "systolic run: " << s.message() << "\n";
          return 1;
        }
        oj["npy"] = file;
      }
      if (!json) {
        if (outputs.size() > 1) out << "output " << o.index << ": ";
        out << text << "\n";
      }
      if (reference) {
        const Difference d = Compare(*o.value, *expected[i].value);
        worst.abs = std::max(worst.abs, d.abs);
        worst.rel = std::max(worst.rel, d.rel);
        oj["max_abs_diff"] = d.abs;
        oj["max_rel_diff"] = d.rel;
        if (!json) {
          out << absl::StrFormat("  vs reference %s: max abs diff %g, max rel diff %g\n", o.index,
                                 d.abs, d.rel);
        }
      }
      outs.push_back(oj);
    }
    report["outputs"] = outs;
    if (reference) {
      report["max_abs_diff"] = worst.abs;
      report["max_rel_diff"] = worst.rel;
    }
  }
  progress.Finish();

  if (const std::optional<std::string>& profile_path = settings.profile) {
    const trace::Profile profile =
        device::ProfileOfRun(absl::StrCat(name, " on ", spec->name()), *spec, timed->compilation,
                             timing);
    if (absl::Status s = trace::WriteProfileFile(profile, *profile_path); !s.ok()) {
      err << "systolic run: " << s.message() << "\n";
      return 1;
    }
    report["profile"] = *profile_path;
    if (!json) out << "profile: " << *profile_path << "\n";
  }
  if (!json) {
    PrintTiming(timing, out);
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
  absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec(args.GetOr("chip", "v4"));
  if (!spec.ok()) return usage_error(std::string(spec.status().message()));
  const bool json = args.Has("json");
  const bool timing_only = args.Has("timing-only");
  const bool compare = args.Has("compare-reference");
  const std::vector<std::string> arg_files = args.GetList("args");
  const std::string out_dir = args.GetOr("out", "");
  if (timing_only && (compare || !out_dir.empty() || !arg_files.empty())) {
    return usage_error("--timing-only computes no values: drop --compare-reference, --out and --args");
  }
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) return usage_error(absl::StrCat("cannot create ", out_dir, ": ", ec.message()));
  }

  ProgressLine progress;
  progress.Update("loading", 0.0, path);
  auto loaded = LoadProgramFile(path, /*verify=*/true);
  if (!loaded.ok()) {
    progress.Finish();
    err << "systolic run: " << loaded.status().message() << "\n";
    return 1;
  }
  const bool several = loaded->size() > 1;
  if (several && (!arg_files.empty() || !out_dir.empty() || args.Has("profile"))) {
    progress.Finish();
    return usage_error(absl::StrCat(path, " holds ", loaded->size(),
                                    " modules; --args, --out and --profile need one"));
  }
  const RunSettings settings{path,    *seed,   timing_only,         compare, json,
                             arg_files, out_dir, args.Get("profile"), several};
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
  if (json) {
    if (several) {
      out << nlohmann::json{{"file", path}, {"modules", modules}}.dump(2) << "\n";
    } else if (!modules.empty()) {
      out << modules[0].dump(2) << "\n";
    }
  }
  return exit_code;
}

const CommandRegistration kRegistration({
    .name = "run",
    .summary = "compile a program, run it on a simulated chip: outputs, simulated time, op table",
    .options = {{"chip", "P", "chip preset or spec file (default v4)"},
                {"seed", "S", "seed of the random arguments (default 0)"},
                {"args", "A.npy,B.npy", "arguments from .npy files, one per parameter"},
                {"out", "DIR", "write every output as a .npy file in DIR"},
                {"timing-only", "", "shapes only: time the program without computing values"},
                {"compare-reference", "", "compare the outputs with the uncompiled module's"},
                {"profile", "FILE", "write a profile with the timeline to FILE"},
                {"json", "", "print one JSON object instead of text"}},
    .positional_usage = "FILE",
    .run = RunRun,
});

}  // namespace
}  // namespace systolic::cli
