#include "samples/lazy/sample_support.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/evaluator_backend.h"

namespace systolic::samples {

Literal HostRandom::Normal(std::vector<int64_t> dims, double stddev) {
  Literal l(Shape(F32, dims));
  std::normal_distribution<double> normal(0, stddev);
  for (float& v : l.data<float>()) v = float(normal(engine_));
  return l;
}

Literal HostRandom::Uniform(std::vector<int64_t> dims, double low, double high) {
  Literal l(Shape(F32, dims));
  std::uniform_real_distribution<double> uniform(low, high);
  for (float& v : l.data<float>()) v = float(uniform(engine_));
  return l;
}

int64_t HostRandom::Index(int64_t n) {
  return std::uniform_int_distribution<int64_t>(0, n - 1)(engine_);
}

ClassificationData MakeBlobs(int64_t n, int64_t features, int64_t classes, HostRandom& random) {
  Literal centres = random.Normal({classes, features}, 1.0);
  Literal noise = random.Normal({n, features}, 0.7);
  ClassificationData data{Literal(Shape(F32, {n, features})), Literal(Shape(S32, {n}))};
  for (int64_t i = 0; i < n; ++i) {
    const int64_t label = random.Index(classes);
    data.labels.data<int32_t>()[i] = int32_t(label);
    for (int64_t f = 0; f < features; ++f) {
      data.x.data<float>()[i * features + f] =
          centres.data<float>()[label * features + f] + noise.data<float>()[i * features + f];
    }
  }
  return data;
}

Literal Rows(const Literal& value, int64_t start, int64_t count) {
  Shape shape(value.element_type(), value.shape().dimensions());
  shape.set_dimensions(0, count);
  Literal rows(shape);
  const int64_t row_bytes = value.size_bytes() / value.shape().dimensions(0);
  std::memcpy(rows.untyped_data(),
              static_cast<const char*>(value.untyped_data()) + start * row_bytes,
              count * row_bytes);
  return rows;
}

absl::StatusOr<std::shared_ptr<lazy::ExecutionBackend>> BackendFor(
    const SampleRunOptions& options, int64_t devices) {
  if (options.backend) {
    if (options.backend->device_count() < devices) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the sample needs ", devices, " devices; backend ", options.backend->name(), " has ",
          options.backend->device_count()));
    }
    return options.backend;
  }
  return std::make_shared<lazy::EvaluatorBackend>(devices);
}

absl::StatusOr<double> MeanOverReplicas(const lazy::Tensor& loss) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> values, loss.ToReplicaLiterals());
  double sum = 0;
  for (const Literal& v : values) sum += v.GetAsDouble(0);
  return sum / double(values.size());
}

absl::Status RecordTrainedParameters(const std::vector<lazy::Tensor>& params,
                                     const std::vector<std::string>& names, TrainingLog* log,
                                     std::source_location where) {
  for (size_t i = 0; i < params.size() && i < names.size(); ++i) {
    SYSTOLIC_ASSIGN_OR_RETURN(Literal value, params[i].ToLiteral(where));
    log->parameters.push_back({names[i], std::move(value)});
  }
  return absl::OkStatus();
}

void RecordDevice(const lazy::LazyDevice& device, TrainingLog* log) {
  log->compile_events = device.compile_events();
  log->programs.clear();
  log->device_programs.clear();
  for (const auto& program : device.executor().programs()) {
    log->programs.push_back(program->module().ToString());
    log->device_programs.push_back(program->executable->device_program().ToString());
  }
  log->metrics_report = device.MetricsReport();
  log->warnings = device.metrics().warnings();
}

}  // namespace systolic::samples
