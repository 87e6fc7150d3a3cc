// `systolic mxu --rows R --cols C --dataflow os|ws|is --m M --n N --k K
//  [--engine cycle|analytic] [--chip PRESET|FILE] [--json]`: the timing of
// one GEMM C[M,N] = A[M,K]·B[K,N] on one systolic array.
//
// --chip takes the array (rows, cols, dataflow) from a chip spec; explicit
// --rows/--cols/--dataflow override it. The cycle engine simulates every PE
// (operands are a fixed pseudo-random pattern), so it refuses GEMMs beyond a
// few billion PE-cycles.
//
// --json keys: engine, dataflow, rows, cols, m, n, k, cycles, folds,
// row_folds, col_folds, mapping_efficiency, utilization, macs.
#include <random>

#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/dataflow.h"
#include "core/device/mxu_analytic_engine.h"
#include "core/device/mxu_cycle_engine.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

using device::ArrayShape;
using device::Dataflow;
using device::GemmShape;
using device::MxuTiming;

// About a minute of the cycle engine on one core.
constexpr double kMaxCycleEnginePeCycles = 4e9;

struct MxuRequest {
  ArrayShape array;
  Dataflow dataflow = device::DATAFLOW_UNSPECIFIED;
  GemmShape gemm;
  bool cycle_engine = false;
};

absl::StatusOr<MxuRequest> ParseRequest(const CliArgs& args) {
  MxuRequest request;
  int64_t default_rows = 0, default_cols = 0;
  std::string default_dataflow;
  if (auto chip = args.Get("chip")) {
    absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec(*chip);
    if (!spec.ok()) return spec.status();
    default_rows = spec->mxu().rows();
    default_cols = spec->mxu().cols();
    default_dataflow = device::DataflowShortName(spec->mxu().dataflow());
  }
  auto size = [&](const char* name, int64_t fallback) -> absl::StatusOr<int64_t> {
    if (!args.Has(name) && fallback == 0) {
      return absl::InvalidArgumentError(absl::StrFormat("--%s is required", name));
    }
    absl::StatusOr<int64_t> value = args.GetInt(name, fallback);
    if (value.ok() && *value <= 0) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--%s must be positive, got %d", name, *value));
    }
    return value;
  };
  for (auto [name, fallback, out] :
       {std::tuple{"rows", default_rows, &request.array.rows},
        std::tuple{"cols", default_cols, &request.array.cols}, std::tuple{"m", int64_t{0}, &request.gemm.m},
        std::tuple{"n", int64_t{0}, &request.gemm.n}, std::tuple{"k", int64_t{0}, &request.gemm.k}}) {
    absl::StatusOr<int64_t> value = size(name, fallback);
    if (!value.ok()) return value.status();
    *out = *value;
  }
  const std::string dataflow = args.GetOr("dataflow", default_dataflow);
  if (dataflow.empty()) return absl::InvalidArgumentError("--dataflow is required (os, ws or is)");
  absl::StatusOr<Dataflow> parsed = device::ParseDataflow(dataflow);
  if (!parsed.ok()) return parsed.status();
  request.dataflow = *parsed;
  const std::string engine = args.GetOr("engine", "analytic");
  if (engine != "cycle" && engine != "analytic") {
    return absl::InvalidArgumentError(
        absl::StrFormat("unknown engine '%s' (expected cycle or analytic)", engine));
  }
  request.cycle_engine = engine == "cycle";
  return request;
}

std::vector<float> PatternValues(int64_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = value(rng);
  return values;
}

int RunMxu(const CliArgs& args, std::ostream& out, std::ostream& err) {
  absl::StatusOr<MxuRequest> request = ParseRequest(args);
  if (!request.ok()) {
    err << "systolic mxu: " << request.status().message() << "\n";
    return 2;
  }
  const MxuRequest& r = *request;
  const device::MxuAnalyticEngine analytic(r.array, r.dataflow);
  absl::StatusOr<MxuTiming> timing = analytic.Run(r.gemm);
  if (!timing.ok()) {
    err << "systolic mxu: " << timing.status().message() << "\n";
    return 2;
  }
  if (r.cycle_engine) {
    const double pe_cycles = double(timing->cycles) * double(r.array.pes());
    if (pe_cycles > kMaxCycleEnginePeCycles) {
      err << absl::StrFormat(
          "systolic mxu: %.3g PE-cycles is too much for the cycle engine (limit %.0g); use "
          "--engine analytic, which gives the same timing\n",
          pe_cycles, kMaxCycleEnginePeCycles);
      return 2;
    }
    absl::StatusOr<device::MxuCycleResult> result =
        device::MxuCycleEngine(r.array, r.dataflow)
            .Run(r.gemm, PatternValues(r.gemm.m * r.gemm.k, 1), PatternValues(r.gemm.k * r.gemm.n, 2));
    if (!result.ok()) {
      err << "systolic mxu: " << result.status().message() << "\n";
      return 1;
    }
    timing = result->timing;
  }
  const MxuTiming& t = *timing;
  if (args.Has("json")) {
    nlohmann::json j = {{"engine", r.cycle_engine ? "cycle" : "analytic"},
                        {"dataflow", device::DataflowShortName(r.dataflow)},
                        {"rows", r.array.rows},
                        {"cols", r.array.cols},
                        {"m", r.gemm.m},
                        {"n", r.gemm.n},
                        {"k", r.gemm.k},
                        {"cycles", t.cycles},
                        {"folds", t.folds},
                        {"row_folds", t.row_folds},
                        {"col_folds", t.col_folds},
                        {"mapping_efficiency", t.mapping_efficiency},
                        {"utilization", t.utilization},
                        {"macs", t.macs}};
    out << j.dump(2) << "\n";
    return 0;
  }
  out << "cycles: " << t.cycles << "\n"
      << absl::StrFormat("folds: %d (%d row x %d column)\n", t.folds, t.row_folds, t.col_folds)
      << absl::StrFormat("mapping efficiency: %.4f\n", t.mapping_efficiency)
      << absl::StrFormat("utilisation: %.4f\n", t.utilization)
      << "macs: " << t.macs << "\n"
      << absl::StrFormat("engine: %s, %s on %dx%d\n", r.cycle_engine ? "cycle" : "analytic",
                         device::DataflowLongName(r.dataflow), r.array.rows, r.array.cols);
  return 0;
}

const CommandRegistration kRegistration({
    .name = "mxu",
    .summary = "cycles, folds and utilisation of one GEMM on a systolic array",
    .options = {{"rows", "R", "processing elements per column of the array"},
                {"cols", "C", "processing elements per row of the array"},
                {"dataflow", "os|ws|is", "output-, weight- or input-stationary"},
                {"m", "M", "rows of A and C"},
                {"n", "N", "columns of B and C"},
                {"k", "K", "the contracted dimension"},
                {"engine", "cycle|analytic", "simulate every PE, or the closed form (default)"},
                {"chip", "PRESET|FILE", "take rows, cols and dataflow from a chip spec"},
                {"json", "", "print one JSON object"}},
    .positional_usage = "",
    .run = RunMxu,
});

}  // namespace
}  // namespace systolic::cli
