// The simulator's prediction of one training step of the decoder
// (maxtext_decoder.h) on slices of a chip: the step traced by shape for one
// chip, compiled, and timed timing-only with its collectives on the slices'
// ICI and data-centre network. FLOPs are counted as MaxText counts them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/slice.h"
#include "samples/lazy/maxtext_decoder.h"

namespace systolic::samples {

struct DecoderRunPrediction {
  std::string model;     // "maxtext-16b", "llama3-8b"
  std::string topology;  // "v5e:16x16*4"
  int64_t chips = 0;
  double parameters = 0;
  double model_flops_per_chip = 0;  // per step, as MaxText counts them
  double step_seconds = 0;          // simulated
  double tokens_per_second = 0;     // of the whole run
  double tflops_per_chip = 0;       // model FLOPs / step time
  double mfu = 0;                   // of the chip's peak
  double wall_seconds = 0;          // to trace, compile and simulate
  std::vector<std::string> warnings;
};

// `mesh` must cover the slices' chips: its slices the topology's, its fsdp
// x tensor each slice's chips. Errors: a mesh that does not, or that does
// not divide the model, and those of compiling.
absl::StatusOr<DecoderRunPrediction> PredictDecoderRun(const DecoderConfig& config,
                                                       const DecoderMesh& mesh,
                                                       const device::Slice& slice);

}  // namespace systolic::samples
