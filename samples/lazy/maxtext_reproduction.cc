#include "samples/lazy/maxtext_reproduction.h"

#include "absl/strings/str_cat.h"
#include "core/device/slice.h"
#include "core/hlo/status_macros.h"

namespace systolic::samples {

const std::vector<PublishedCell>& MaxTextV5eTable() {
  // MFU per model (16B, 32B, 64B, 128B) and slice count; TFLOP/s per chip
  // on one slice.
  static const std::vector<PublishedCell> kTable = [] {
    const int64_t scales[] = {16, 32, 64, 128};
    const int64_t slices[] = {1, 2, 4, 8, 16, 32};
    const double mfu[4][6] = {{61.10, 59.37, 59.14, 58.27, 56.56, 54.65},
                              {66.86, 64.81, 64.10, 63.67, 62.26, 60.40},
                              {59.90, 56.66, 55.85, 54.96, 53.29, 50.18},
                              {56.06, 55.82, 54.93, 52.93, 50.86, 46.25}};
    const double one_slice_tflops[4] = {120, 132, 118, 110};
    std::vector<PublishedCell> table;
    for (int m = 0; m < 4; ++m) {
      for (int s = 0; s < 6; ++s) {
        table.push_back({scales[m], slices[s], mfu[m][s] / 100,
                         s == 0 ? one_slice_tflops[m] : 0.0});
      }
    }
    return table;
  }();
  return kTable;
}

MaxTextRunConfig MaxTextV5eRun(const PublishedCell& cell) {
  MaxTextRunConfig run;
  run.mesh.slices = cell.slices;
  switch (cell.global_parameter_scale) {
    case 16:
      run.per_device_batch = 6;
      break;
    case 32:
      run.per_device_batch = 4;
      break;
    case 64:
      run.per_device_batch = 2;
      break;
    default:
      run.per_device_batch = 1;
      break;
  }
  if (cell.global_parameter_scale >= 128) {
    run.mesh.fsdp = 16;
    run.mesh.tensor = 16;
  } else {
    run.mesh.fsdp = 256;
  }
  return run;
}

namespace {

// The cell's model at the batch its configuration runs.
absl::StatusOr<DecoderConfig> ConfigOf(const PublishedCell& cell, const MaxTextRunConfig& run) {
  return MaxTextScaledDecoder(cell.global_parameter_scale, run.per_device_batch);
}

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> TraceCell(const PublishedCell& cell) {
  const MaxTextRunConfig run = MaxTextV5eRun(cell);
  SYSTOLIC_ASSIGN_OR_RETURN(DecoderConfig config, ConfigOf(cell, run));
  return TraceDecoderTrainingStep(config, run.mesh);
}

absl::StatusOr<CellPrediction> PredictCell(const PublishedCell& cell,
                                           const device::ChipSpec& chip) {
  const MaxTextRunConfig run = MaxTextV5eRun(cell);
  SYSTOLIC_ASSIGN_OR_RETURN(DecoderConfig config, ConfigOf(cell, run));
  SYSTOLIC_ASSIGN_OR_RETURN(device::Slice slice,
                            device::MakeSlice(chip, {16, 16}, run.mesh.slices));
  CellPrediction p;
  p.published = cell;
  SYSTOLIC_ASSIGN_OR_RETURN(p.run, PredictDecoderRun(config, run.mesh, slice));
  return p;
}

}  // namespace systolic::samples
