// `systolic diff BEFORE.sysprof AFTER.sysprof [--chip N] [--top N] [--json]`:
// two runs compared per step — step time, TFLOP/s, busy time per unit
// category — and every instruction's change of self time, largest first.
// The changes, with the idle and unattributed rows, sum to the step-time
// change.
//
// --json keys: before / after {file, title, chip, steps, step_seconds,
// flops, tflops, flop_utilization, busy_seconds {mxu, vector, dma, other}}, step_delta_seconds,
// ops [{instruction, before_seconds, after_seconds, delta_seconds,
// share_of_delta}].
#include <cmath>
#include <iomanip>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/analysis/run_comparison.h"
#include "core/analysis/time_ruler.h"
#include "core/trace/profile_reader.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

using analysis::OpChange;
using analysis::RunComparison;
using analysis::RunSide;

nlohmann::json SideJson(const std::string& file, const RunSide& side) {
  nlohmann::json busy;
  for (int c = 0; c < analysis::kOpCategoryCount; ++c) {
    std::string key = analysis::OpCategoryName(analysis::OpCategory(c));
    for (char& ch : key) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    busy[key] = side.category_ps[c] * 1e-12;
  }
  return {{"file", file},           {"title", side.title},
          {"chip", side.chip},      {"steps", side.steps},
          {"step_seconds", side.step_ps * 1e-12},
          {"flops", side.flops},    {"tflops", side.tflops()},
          {"flop_utilization", side.flop_utilization()},
          {"busy_seconds", busy}};
}

std::string Ps(double ps, const analysis::TimeUnit& unit) {
  return analysis::FormatPsIn(int64_t(std::llround(ps)), unit);
}

std::string SignedPs(double ps, const analysis::TimeUnit& unit) {
  return (ps > 0 ? "+" : "") + Ps(ps, unit);
}

void PrintText(const std::string& a, const std::string& b, const RunComparison& c, size_t top,
               std::ostream& out) {
  const analysis::TimeUnit unit =
      analysis::TimeUnitFor(int64_t(std::max(c.before.step_ps, c.after.step_ps)));
  out << "before: " << a << " (" << c.before.title << ", " << c.before.steps << " steps)\n";
  out << "after:  " << b << " (" << c.after.title << ", " << c.after.steps << " steps)\n";
  out << absl::StrFormat("step time  %14s -> %-14s %s (%+.1f%%)\n", Ps(c.before.step_ps, unit),
                         Ps(c.after.step_ps, unit), SignedPs(c.step_delta_ps(), unit),
                         c.before.step_ps > 0 ? 100 * c.step_delta_ps() / c.before.step_ps : 0.0);
  out << absl::StrFormat("TFLOP/s    %14.3f -> %-14.3f\n", c.before.tflops(), c.after.tflops());
  out << absl::StrFormat("of peak    %13.1f%% -> %.1f%%\n", 100 * c.before.flop_utilization(),
                         100 * c.after.flop_utilization());
  for (int k = 0; k < analysis::kOpCategoryCount; ++k) {
    out << absl::StrFormat("%-10s %14s -> %-14s unit time per step, summed over its units\n",
                           analysis::OpCategoryName(analysis::OpCategory(k)),
                           Ps(c.before.category_ps[k], unit), Ps(c.after.category_ps[k], unit));
  }
  size_t width = 11;
  for (size_t i = 0; i < c.ops.size() && i < top; ++i) width = std::max(width, c.ops[i].name.size());
  out << "\n" << std::left << std::setw(int(width)) << "instruction" << std::right
      << absl::StrFormat(" %14s %14s %14s %8s\n", "before", "after", "change", "of change");
  for (size_t i = 0; i < c.ops.size() && i < top; ++i) {
    const OpChange& op = c.ops[i];
    const double share = c.step_delta_ps() != 0 ? 100 * op.delta_ps() / c.step_delta_ps() : 0;
    out << std::left << std::setw(int(width)) << op.name << std::right
        << absl::StrFormat(" %14s %14s %14s %7.1f%%\n", Ps(op.before_ps, unit), Ps(op.after_ps, unit),
                           SignedPs(op.delta_ps(), unit), share);
  }
  if (c.ops.size() > top) out << "… " << c.ops.size() - top << " more (--top N)\n";
}

int RunDiff(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 2) {
    err << "systolic diff: give two profile files, the run before and the run after\n";
    return 2;
  }
  int32_t chip = -1;
  if (std::optional<std::string> value = args.Get("chip"); value && !absl::SimpleAtoi(*value, &chip)) {
    err << "systolic diff: --chip takes a chip number, not '" << *value << "'\n";
    return 2;
  }
  size_t top = 20;
  if (std::optional<std::string> value = args.Get("top"); value && !absl::SimpleAtoi(*value, &top)) {
    err << "systolic diff: --top takes a number of rows, not '" << *value << "'\n";
    return 2;
  }
  std::vector<trace::Profile> profiles;
  for (const std::string& path : args.positional()) {
    absl::StatusOr<trace::Profile> profile = trace::ReadProfileFile(path);
    if (!profile.ok()) {
      err << "systolic diff: " << profile.status().message() << "\n";
      return 1;
    }
    profiles.push_back(*std::move(profile));
  }
  absl::StatusOr<RunComparison> comparison = analysis::CompareRuns(profiles[0], profiles[1], chip);
  if (!comparison.ok()) {
    err << "systolic diff: " << comparison.status().message() << "\n";
    return 1;
  }
  const std::string& a = args.positional()[0];
  const std::string& b = args.positional()[1];
  if (!args.Has("json")) {
    PrintText(a, b, *comparison, top, out);
    return 0;
  }
  nlohmann::json j;
  j["before"] = SideJson(a, comparison->before);
  j["after"] = SideJson(b, comparison->after);
  j["step_delta_seconds"] = comparison->step_delta_ps() * 1e-12;
  nlohmann::json ops = nlohmann::json::array();
  for (const OpChange& op : comparison->ops) {
    ops.push_back({{"instruction", op.name},
                   {"before_seconds", op.before_ps * 1e-12},
                   {"after_seconds", op.after_ps * 1e-12},
                   {"delta_seconds", op.delta_ps() * 1e-12},
                   {"share_of_delta", comparison->step_delta_ps() != 0
                                          ? op.delta_ps() / comparison->step_delta_ps()
                                          : 0.0}});
  }
  j["ops"] = ops;
  out << j.dump(2) << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "diff",
    .summary = "compare two runs' profiles: step time, TFLOP/s, unit busy time, each instruction's change",
    .options = {{"chip", "N", "compare chip N (default: the first)"},
                {"top", "N", "rows of instructions to print (default 20)"},
                {"json", "", "print the figures as JSON (every instruction)"}},
    .positional_usage = "BEFORE.sysprof AFTER.sysprof",
    .run = RunDiff,
});

}  // namespace
}  // namespace systolic::cli
