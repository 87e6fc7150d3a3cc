// `systolic decoder NAME --topology T [--per-device-batch B] [--sequence S]
// [--tensor N] [--json] [--hlo-out FILE]`: predicts one training step of a
// named decoder (`maxtext-16b`, `llama3-8b`, ...; an unknown name lists
// them) on the slices of T, traced by shape and simulated timing-only:
// FSDP over each slice's chips (divided by --tensor for tensor
// parallelism), data parallel across slices over the data-centre network.
// Prints the step time, tokens/s, TFLOP/s per chip and MFU (FLOPs counted
// as MaxText counts them).
//
// --json: {model, parameters, topology, chips, per_device_batch, sequence,
// fsdp, tensor, step_seconds, tokens_per_second, tflops_per_chip, mfu,
// wall_seconds, warnings}.
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/device/slice.h"
#include "core/hlo/atomic_file.h"
#include "nlohmann/json.hpp"
#include "samples/lazy/decoder_prediction.h"

namespace systolic::cli {
namespace {

// A positive integer option, or `fallback` when absent; -1 when malformed.
int64_t PositiveOption(const CliArgs& args, const std::string& name, int64_t fallback) {
  std::optional<std::string> text = args.Get(name);
  if (!text) return fallback;
  int64_t value = 0;
  return absl::SimpleAtoi(*text, &value) && value > 0 ? value : -1;
}

int RunDecoder(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1) {
    err << "systolic decoder: name one model, e.g. llama3-8b (an unknown name lists them)\n";
    return 2;
  }
  const int64_t batch = PositiveOption(args, "per-device-batch", 1);
  const int64_t sequence = PositiveOption(args, "sequence", 2048);
  const int64_t tensor = PositiveOption(args, "tensor", 1);
  if (batch < 0 || sequence < 0 || tensor < 0) {
    err << "systolic decoder: --per-device-batch, --sequence and --tensor take positive "
           "integers\n";
    return 2;
  }
  absl::StatusOr<samples::DecoderConfig> config =
      samples::NamedDecoder(args.positional()[0], batch, sequence);
  absl::StatusOr<device::Slice> slice = device::LoadSlice(args.Get("topology").value_or("v5e:16x16"));
  if (!config.ok() || !slice.ok()) {
    err << "systolic decoder: " << (config.ok() ? slice.status() : config.status()).message()
        << "\n";
    return 1;
  }
  const int64_t per_slice = slice->topology.chips_per_slice();
  if (per_slice % tensor != 0) {
    err << "systolic decoder: --tensor " << tensor << " does not divide the slice's " << per_slice
        << " chips\n";
    return 2;
  }
  const samples::DecoderMesh mesh{slice->topology.slices(), per_slice / tensor, tensor};
  if (std::optional<std::string> path = args.Get("hlo-out")) {
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        samples::TraceDecoderTrainingStep(*config, mesh);
    absl::Status written =
        module.ok() ? WriteFileAtomically(*path, (*module)->ToString()) : module.status();
    if (!written.ok()) {
      err << "systolic decoder: " << written.message() << "\n";
      return 1;
    }
  }
  absl::StatusOr<samples::DecoderRunPrediction> p =
      samples::PredictDecoderRun(*config, mesh, *slice);
  if (!p.ok()) {
    err << "systolic decoder: " << p.status().message() << "\n";
    return 1;
  }
  if (args.Has("json")) {
    out << nlohmann::json({{"model", p->model},
                           {"parameters", p->parameters},
                           {"topology", p->topology},
                           {"chips", p->chips},
                           {"per_device_batch", batch},
                           {"sequence", sequence},
                           {"fsdp", mesh.fsdp},
                           {"tensor", mesh.tensor},
                           {"step_seconds", p->step_seconds},
                           {"tokens_per_second", p->tokens_per_second},
                           {"tflops_per_chip", p->tflops_per_chip},
                           {"mfu", p->mfu},
                           {"wall_seconds", p->wall_seconds},
                           {"warnings", p->warnings}})
                .dump(2)
        << "\n";
    return 0;
  }
  out << absl::StrFormat("%s (%.1fB parameters) on %s: %d chips, fsdp %d x tensor %d per slice\n",
                         p->model, p->parameters / 1e9, p->topology, p->chips, mesh.fsdp,
                         mesh.tensor);
  out << absl::StrFormat("step %.3f s, %.0f tokens/s, %.1f TFLOP/s per chip, MFU %.2f%%\n",
                         p->step_seconds, p->tokens_per_second, p->tflops_per_chip, 100 * p->mfu);
  for (const std::string& warning : p->warnings) out << "warning: " << warning << "\n";
  return 0;
}

const CommandRegistration kRegistration({
    .name = "decoder",
    .summary = "predict a training step of a named decoder (maxtext-16b, llama3-8b, ...)",
    .options = {{"topology", "T", "chips and slices, e.g. v5e:16x16*2 (default v5e:16x16)"},
                {"per-device-batch", "B", "sequences per chip (default 1)"},
                {"sequence", "S", "tokens per sequence (default 2048)"},
                {"tensor", "N", "tensor-parallel chips within each slice (default 1)"},
                {"hlo-out", "FILE", "also write the traced per-chip program as HLO text"},
                {"json", "", "print JSON"}},
    .positional_usage = "NAME",
    .run = RunDecoder,
});

}  // namespace
}  // namespace systolic::cli
