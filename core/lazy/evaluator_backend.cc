#include "core/lazy/evaluator_backend.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/partitioned_execution.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/status_macros.h"

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
  EvaluatorExecutable(std::unique_ptr<HloModule> module, std::optional<SpmdProgram> spmd)
      : module_(std::move(module)), spmd_(std::move(spmd)) {}
  const HloModule& module() const override { return *module_; }
  const HloModule& device_program() const override {
    return spmd_ ? *spmd_->partitioned : *module_;
  }
  // The per-partition program and the whole values' layouts, for an SPMD
  // program.
  const std::optional<SpmdProgram>& spmd() const { return spmd_; }

 private:
  std::unique_ptr<HloModule> module_;
  std::optional<SpmdProgram> spmd_;
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
  const int64_t needed = options.replica_count * std::max<int64_t>(1, options.num_partitions);
  if (needed > device_count_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a program of ", options.replica_count, " replicas x ", options.num_partitions,
        " partitions needs ", needed, " devices; the evaluator backend has ", device_count_));
  }
  SYSTOLIC_RETURN_IF_ERROR(VerifyHloModule(*module));
  SYSTOLIC_ASSIGN_OR_RETURN(std::optional<SpmdProgram> spmd, PartitionWithSignature(*module));
  BackendCompileResult result;
  result.executable = std::make_shared<EvaluatorExecutable>(std::move(module), std::move(spmd));
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
  if (const std::optional<SpmdProgram>& spmd = exe->spmd()) {
    if (devices != 1) {
      return absl::InvalidArgumentError("an SPMD program takes one row of whole arguments");
    }
    SYSTOLIC_ASSIGN_OR_RETURN(results,
                              EvaluatePartitioned(*spmd->partitioned, spmd->signature, args[0]));
  } else if (devices == 1) {
    HloEvaluator evaluator;
    SYSTOLIC_ASSIGN_OR_RETURN(Literal result, evaluator.Evaluate(exe->module(), args[0]));
    results.push_back(std::move(result));
  } else {
    SYSTOLIC_ASSIGN_OR_RETURN(results, EvaluateSpmd(exe->module(), args, devices, 1));
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
