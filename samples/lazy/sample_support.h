// What the lazy samples share: host-side random values (so every run, and
// every kind of parallelism, starts from the same numbers), synthetic data,
// the backend a run uses, and filling the training log from the device.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/literal.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"
#include "samples/lazy/lazy_sample.h"

namespace systolic::samples {

class HostRandom {
 public:
  explicit HostRandom(uint64_t seed) : engine_(seed) {}
  // f32 values, normal with `stddev`.
  Literal Normal(std::vector<int64_t> dims, double stddev);
  Literal Uniform(std::vector<int64_t> dims, double low, double high);
  int64_t Index(int64_t n);

 private:
  std::mt19937_64 engine_;
};

// Points around one centre per class: x f32[n, features], labels s32[n].
struct ClassificationData {
  Literal x;
  Literal labels;
};
ClassificationData MakeBlobs(int64_t n, int64_t features, int64_t classes, HostRandom& random);

// `count` rows of `value` from `start`.
Literal Rows(const Literal& value, int64_t start, int64_t count);

// The caller's backend, or the reference evaluator for `devices` devices.
absl::StatusOr<std::shared_ptr<lazy::ExecutionBackend>> BackendFor(
    const SampleRunOptions& options, int64_t devices);

// The mean of a loss over the replicas (each holds its own batch's mean).
absl::StatusOr<double> MeanOverReplicas(const lazy::Tensor& loss);

// The trained values of `params` (read back from the device) under `names`;
// the reads are attributed to the caller's line.
absl::Status RecordTrainedParameters(
    const std::vector<lazy::Tensor>& params, const std::vector<std::string>& names,
    TrainingLog* log, std::source_location where = std::source_location::current());

// Compile events, program texts, metrics and warnings of `device`.
void RecordDevice(const lazy::LazyDevice& device, TrainingLog* log);

}  // namespace systolic::samples
