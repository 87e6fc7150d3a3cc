// Training programs written with the lazy front end, each runnable by name:
// the CLI lists them (`systolic samples`), tests train them, and the profile
// command runs them on the device and runtime. A run returns the training
// log: the loss per step, every compile request with its cause, the metrics
// report and the final parameters.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/literal.h"
#include "core/lazy/execution_backend.h"
#include "core/trace/compile_event.h"

namespace systolic::samples {

struct SampleRunOptions {
  int64_t steps = 8;
  // Runs the programs; null: the reference evaluator with as many devices
  // as the sample's topology has.
  std::shared_ptr<lazy::ExecutionBackend> backend;
  // The same training on one device with the whole batch and unsharded
  // parameters: the reference a distributed run is checked against.
  bool single_device = false;
  // Matrix products in f32 where the sample uses bf16: bf16 gradients summed
  // on one device or in parts on many round differently, so exact
  // comparisons of distributed and single-device runs need f32.
  bool f32_matmuls = false;
};

struct TrainingStep {
  int64_t step = 0;
  int64_t batch_size = 0;  // global
  double loss = 0;         // mean over the global batch
};

struct NamedValue {
  std::string name;
  Literal value;
};

struct TrainingLog {
  std::string sample;
  std::string topology;
  int64_t devices = 1;  // replicas, or partitions for SPMD
  std::vector<TrainingStep> steps;
  std::vector<trace::CompileEvent> compile_events;
  // Text of each compiled program, by program id.
  std::vector<std::string> programs;
  // What each device ran of it: the per-partition program of an SPMD
  // program, else the program itself.
  std::vector<std::string> device_programs;
  std::string metrics_report;
  std::vector<std::string> warnings;
  // Whole (unsharded) parameter values after the last step.
  std::vector<NamedValue> parameters;

  // Human-readable: one line per step, then the compiles and their causes.
  std::string ToString() const;
};

struct LazySample {
  std::string name;         // "mlp_ddp"
  std::string description;  // one line
  std::string topology;     // "v5e:2x2"
  std::function<absl::StatusOr<TrainingLog>(const SampleRunOptions&)> run;
  // The model FLOPs of one training step over the whole global batch
  // (6 x parameters x tokens, plus attention; no rematerialisation), for
  // the MFU the profile command prints; 0 when the sample does not say.
  double model_flops_per_step = 0;
};

// Every sample, sorted by name.
const std::vector<LazySample>& LazySamples();
const LazySample* FindLazySample(absl::string_view name);

// The samples (one file each).
LazySample CnnEdgeSample();
LazySample MlpDdpSample();
LazySample MlpSpmdSample();
LazySample TransformerFsdpSample();
LazySample TransformerScanSample();

}  // namespace systolic::samples
