// MaxText's published throughput of its reference decoder on TPU v5e (its
// configs/v5e README: the 16B to 128B models on 1 to 32 slices of v5e-256)
// and the simulator's prediction of each cell: the decoder traced by shape
// for one chip of the run, compiled, and timed on the slices with their
// data-centre network, nothing fitted per model or per cell.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/hlo/hlo_module.h"
#include "samples/lazy/decoder_prediction.h"
#include "samples/lazy/maxtext_decoder.h"

namespace systolic::samples {

struct PublishedCell {
  int64_t global_parameter_scale = 16;  // the model: 16 / 32 / 64 / 128 (billions)
  int64_t slices = 1;                   // of v5e-256
  double mfu = 0;                       // published, as a fraction
  double tflops_per_chip = 0;           // published; 0 where the table gives none
};

// Every cell of the table, models in order, slices within each.
const std::vector<PublishedCell>& MaxTextV5eTable();

// How MaxText's configs/v5e/<model>.sh runs a model.
struct MaxTextRunConfig {
  int64_t per_device_batch = 1;
  DecoderMesh mesh;  // within each slice, and the slices
};
MaxTextRunConfig MaxTextV5eRun(const PublishedCell& cell);

struct CellPrediction {
  PublishedCell published;
  DecoderRunPrediction run;
};

// The per-chip training step of one cell, traced by shape (what
// PredictCell compiles; `systolic reproduce --hlo-out` writes it).
absl::StatusOr<std::unique_ptr<HloModule>> TraceCell(const PublishedCell& cell);

// Traces, compiles and times one cell on slices of `chip` (the v5e preset,
// or a spec standing in for it).
absl::StatusOr<CellPrediction> PredictCell(const PublishedCell& cell,
                                           const device::ChipSpec& chip);

}  // namespace systolic::samples
