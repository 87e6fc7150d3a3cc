#include "samples/lazy/decoder_prediction.h"

#include <chrono>
#include <memory>

#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/slice_timing.h"
#include "core/hlo/status_macros.h"

namespace systolic::samples {

absl::StatusOr<DecoderRunPrediction> PredictDecoderRun(const DecoderConfig& config,
                                                       const DecoderMesh& mesh,
                                                       const device::Slice& slice) {
  const auto start = std::chrono::steady_clock::now();
  if (mesh.slices != slice.topology.slices() ||
      mesh.fsdp * mesh.tensor != slice.topology.chips_per_slice()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the mesh (", mesh.slices, " slice(s) of ", mesh.fsdp, " fsdp x ", mesh.tensor,
        " tensor) does not cover ", slice.Name(), " (", slice.topology.slices(), " slice(s) of ",
        slice.topology.chips_per_slice(), " chips)"));
  }
  DecoderRunPrediction p;
  p.model = config.name;
  p.topology = slice.Name();
  p.chips = mesh.devices();
  p.parameters = DecoderParameterCount(config);
  p.model_flops_per_chip = MaxTextTrainingFlopsPerDevice(config);
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                            TraceDecoderTrainingStep(config, mesh));
  SYSTOLIC_ASSIGN_OR_RETURN(
      device::TimedSliceCompilation timed,
      device::CompileAndTimeOnSlice(std::move(module), slice, SpmdDeviceCounts{p.chips, 1}));
  p.step_seconds = timed.timing.chip.seconds;
  p.warnings = timed.timing.chip.warnings;
  if (p.step_seconds <= 0) {
    return absl::InternalError(absl::StrCat(p.model, " on ", p.topology, ": no time simulated"));
  }
  p.tokens_per_second =
      double(config.per_device_batch * config.sequence * p.chips) / p.step_seconds;
  p.tflops_per_chip = p.model_flops_per_chip / p.step_seconds / 1e12;
  p.mfu = p.model_flops_per_chip / p.step_seconds / device::PeakFlopsPerSecond(slice.spec);
  p.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

}  // namespace systolic::samples
