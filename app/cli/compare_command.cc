// `systolic compare PROFILE --chip P [--top N] [--json]`: a real profile
// (imported from an XSpace, or the .xplane.pb itself) against the same
// programs simulated on chip P — per program its mean run time measured and
// simulated, per instruction its mean time per execution on each side and
// their ratio (simulated / measured), largest difference first.
//
// --json keys: input, chip, programs [{id, name, measured_runs,
// measured_run_seconds, simulated_run_seconds, ratio, warnings, ops
// [{instruction, measured_events, measured_seconds, simulated_seconds,
// ratio}]}], errors.
#include <iomanip>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "app/cli/progress_line.h"
#include "core/analysis/measured_vs_simulated.h"
#include "core/analysis/time_ruler.h"
#include "core/device/chip_spec_loader.h"
#include "core/trace/file_kind.h"
#include "core/trace/profile_reader.h"
#include "core/trace/xspace_programs.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

using analysis::MeasuredVsSimulated;
using analysis::OpMeasuredVsSimulated;
using analysis::ProgramMeasuredVsSimulated;

absl::StatusOr<trace::Profile> ReadMeasured(const std::string& path) {
  absl::StatusOr<trace::FileKind> kind = trace::KindOfFile(path);
  if (kind.ok() && *kind == trace::FileKind::kXSpace) return trace::ImportXSpaceFileWithPrograms(path);
  return trace::ReadProfileFile(path);
}

double Ratio(double simulated, double measured) { return measured > 0 ? simulated / measured : 0; }

std::string Ps(double ps, const analysis::TimeUnit& unit) {
  return ps > 0 ? analysis::FormatPsIn(int64_t(std::llround(ps)), unit) : "-";
}

std::string RatioText(double ratio) { return ratio > 0 ? absl::StrFormat("%.2f×", ratio) : "-"; }

void PrintProgram(const ProgramMeasuredVsSimulated& p, size_t top, std::ostream& out) {
  const analysis::TimeUnit run_unit =
      analysis::TimeUnitFor(int64_t(std::max(p.measured_run_ps, p.simulated_run_ps)));
  out << "\nprogram " << p.name << " (" << uint64_t(p.program_id) << ")\n";
  out << absl::StrFormat("  run      measured %s (mean of %d), simulated %s, ratio %s\n",
                         Ps(p.measured_run_ps, run_unit), p.measured_runs,
                         Ps(p.simulated_run_ps, run_unit),
                         RatioText(Ratio(p.simulated_run_ps, p.measured_run_ps)));
  double longest = 0;
  size_t width = 11;
  for (size_t i = 0; i < p.ops.size() && i < top; ++i) {
    longest = std::max({longest, p.ops[i].measured_ps, p.ops[i].simulated_ps});
    width = std::max(width, p.ops[i].instruction.size());
  }
  const analysis::TimeUnit unit = analysis::TimeUnitFor(int64_t(longest));
  out << "  " << std::left << std::setw(int(width)) << "instruction" << std::right
      << absl::StrFormat(" %8s %14s %14s %8s\n", "events", "measured", "simulated", "ratio");
  for (size_t i = 0; i < p.ops.size() && i < top; ++i) {
    const OpMeasuredVsSimulated& op = p.ops[i];
    out << "  " << std::left << std::setw(int(width)) << op.instruction << std::right
        << absl::StrFormat(" %8d %14s %14s %8s\n", op.measured_events, Ps(op.measured_ps, unit),
                           Ps(op.simulated_ps, unit), RatioText(op.ratio()));
  }
  if (p.ops.size() > top) out << "  … " << p.ops.size() - top << " more (--top N)\n";
  for (const std::string& w : p.warnings) out << "  note: " << w << "\n";
}

nlohmann::json ProgramJson(const ProgramMeasuredVsSimulated& p) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpMeasuredVsSimulated& op : p.ops) {
    ops.push_back({{"instruction", op.instruction},
                   {"measured_events", op.measured_events},
                   {"measured_seconds", op.measured_ps * 1e-12},
                   {"simulated_seconds", op.simulated_ps * 1e-12},
                   {"ratio", op.ratio()}});
  }
  return {{"id", uint64_t(p.program_id)},
          {"name", p.name},
          {"measured_runs", p.measured_runs},
          {"measured_run_seconds", p.measured_run_ps * 1e-12},
          {"simulated_run_seconds", p.simulated_run_ps * 1e-12},
          {"ratio", Ratio(p.simulated_run_ps, p.measured_run_ps)},
          {"warnings", p.warnings},
          {"ops", ops}};
}

int RunCompare(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1 || !args.Has("chip")) {
    err << "systolic compare: give one real profile (.sysprof or .xplane.pb) and --chip P\n";
    return 2;
  }
  size_t top = 20;
  if (std::optional<std::string> value = args.Get("top"); value && !absl::SimpleAtoi(*value, &top)) {
    err << "systolic compare: --top takes a number of rows, not '" << *value << "'\n";
    return 2;
  }
  absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec(*args.Get("chip"));
  if (!chip.ok()) {
    err << "systolic compare: " << chip.status().message() << "\n";
    return 2;
  }
  const std::string& input = args.positional()[0];
  absl::StatusOr<trace::Profile> profile = ReadMeasured(input);
  if (!profile.ok()) {
    err << "systolic compare: " << profile.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<MeasuredVsSimulated> compared;
  {
    ProgressLine progress;
    compared = analysis::CompareMeasuredWithSimulated(*profile, *chip, [&](int64_t done, int64_t total) {
      progress.Update("simulating", double(done) / double(total),
                      std::to_string(done) + "/" + std::to_string(total) + " programs");
      return true;
    });
    progress.Finish();
  }
  if (!compared.ok()) {
    err << "systolic compare: " << input << ": " << compared.status().message() << "\n";
    return 1;
  }
  if (args.Has("json")) {
    nlohmann::json programs = nlohmann::json::array();
    for (const ProgramMeasuredVsSimulated& p : compared->programs) programs.push_back(ProgramJson(p));
    out << nlohmann::json({{"input", input},
                           {"chip", compared->chip},
                           {"programs", programs},
                           {"errors", compared->errors}})
               .dump(2)
        << "\n";
  } else {
    out << input << ": measured, against simulated on " << compared->chip
        << " (ratio: simulated / measured)\n";
    for (const ProgramMeasuredVsSimulated& p : compared->programs) PrintProgram(p, top, out);
    for (const std::string& e : compared->errors) out << "\nnot simulated: " << e << "\n";
  }
  return compared->programs.empty() ? 1 : 0;
}

const CommandRegistration kRegistration({
    .name = "compare",
    .summary = "a real profile's programs simulated on a chip, per instruction measured against "
               "simulated time",
    .options = {{"chip", "P", "the simulated chip: a preset (v5e, v5p, ...) or a spec file"},
                {"top", "N", "rows of instructions per program (default 20)"},
                {"json", "", "print the figures as JSON (every instruction)"}},
    .positional_usage = "PROFILE.sysprof|X.xplane.pb --chip P",
    .run = RunCompare,
});

}  // namespace
}  // namespace systolic::cli
