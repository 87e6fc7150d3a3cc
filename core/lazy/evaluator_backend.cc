#include "core/lazy/evaluator_backend.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/unpartitioned_module.h"

namespace systolic::lazy {
namespace {

class EvaluatorBuffer : public DeviceBuffer {
 public:
  EvaluatorBuffer(Literal value, int64_t device) : value_(std::move(value)), device_(device) {}
  const Shape& shape() const override { return value_.shape(); }
  int64_t device() const override { return device_; }
  const Literal& value() const { return value_; }

 private:
  Literal value_;
  int64_t device_;
};

class EvaluatorExecutable : public BackendExecutable {
 public:
  EvaluatorExecutable(std::unique_ptr<HloModule> module, std::unique_ptr<HloModule> runnable,
                      int64_t replicas)
      : module_(std::move(module)), runnable_(std::move(runnable)), replicas_(replicas) {}
  const HloModule& module() const override { return *module_; }
  // What the evaluator runs (the module itself, or its unpartitioned form).
  const HloModule& runnable() const { return runnable_ ? *runnable_ : *module_; }
  int64_t replicas() const { return replicas_; }

 private:
  std::unique_ptr<HloModule> module_;
  std::unique_ptr<HloModule> runnable_;
  int64_t replicas_;
};

}  // namespace

absl::StatusOr<BufferPtr> EvaluatorBackend::TransferToDevice(const Literal& literal,
                                                             int64_t device) {
  if (device < 0 || device >= device_count_) {
    return absl::InvalidArgumentError(
        absl::StrCat("device ", device, " does not exist (", device_count_, " devices)"));
  }
  return std::make_shared<EvaluatorBuffer>(literal.Clone(), device);
}

absl::StatusOr<Literal> EvaluatorBackend::TransferToHost(const DeviceBuffer& buffer) {
  const auto* b = dynamic_cast<const EvaluatorBuffer*>(&buffer);
  if (b == nullptr) return absl::InvalidArgumentError("not a buffer of the evaluator backend");
  return b->value().Clone();
}

absl::StatusOr<BackendCompileResult> EvaluatorBackend::Compile(
    std::unique_ptr<HloModule> module, const BackendCompileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (options.replica_count > device_count_) {
    return absl::InvalidArgumentError(absl::StrCat("a program of ", options.replica_count,
                                                   " replicas needs as many devices; the "
                                                   "evaluator backend has ",
                                                   device_count_));
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyHloModule(*module));
  std::unique_ptr<HloModule> runnable;
  if (module->num_partitions() > 1) {
    SYSTOLIC_ASSIGN_OR_RETURN(runnable, UnpartitionedModule(*module));
  }
  BackendCompileResult result;
  result.executable = std::make_shared<EvaluatorExecutable>(std::move(module), std::move(runnable),
                                                            options.replica_count);
  result.compile_time_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count();
  return result;
}

absl::StatusOr<std::vector<std::vector<BufferPtr>>> EvaluatorBackend::Execute(
    const BackendExecutable& executable, absl::Span<const std::vector<BufferPtr>> arguments) {
  const auto* exe = dynamic_cast<const EvaluatorExecutable*>(&executable);
  if (exe == nullptr) return absl::InvalidArgumentError("not an executable of the evaluator");
  const int64_t devices = int64_t(arguments.size());
  std::vector<std::vector<Literal>> args(devices);
  for (int64_t d = 0; d < devices; ++d) {
    for (const BufferPtr& buffer : arguments[d]) {
      const auto* b = dynamic_cast<const EvaluatorBuffer*>(buffer.get());
      if (b == nullptr) return absl::InvalidArgumentError("argument of another backend");
      args[d].push_back(b->value().Clone());
    }
  }
  std::vector<Literal> results;
  if (devices == 1) {
    HloEvaluator evaluator;
    SYSTOLIC_ASSIGN_OR_RETURN(Literal result, evaluator.Evaluate(exe->runnable(), args[0]));
    results.push_back(std::move(result));
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(results, EvaluateSpmd(exe->runnable(), args, devices, 1));
  }
  std::vector<std::vector<BufferPtr>> outputs(devices);
  for (int64_t d = 0; d < devices; ++d) {
    if (results[d].shape().IsTuple()) {
      for (Literal& element : std::move(results[d]).DecomposeTuple()) {
        outputs[d].push_back(std::make_shared<EvaluatorBuffer>(std::move(element), d));
      }
    } else {
      outputs[d].push_back(std::make_shared<EvaluatorBuffer>(std::move(results[d]), d));
    }
  }
  return outputs;
}

}  // namespace systolic::lazy
