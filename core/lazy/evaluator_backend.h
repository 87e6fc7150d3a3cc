// The execution backend on the reference evaluator: values stay host
// literals, compiling verifies the module, and executing runs it on every
// replica through the evaluator (collectives exchange values exactly).
// SPMD programs are partitioned by the compiler's SPMD stage when compiled;
// executing splits each whole argument into its partitions' shards, runs
// every partition with its collectives, and puts the results back together.
#pragma once

#include <cstdint>
#include <memory>

#include "core/lazy/execution_backend.h"

namespace systolic::lazy {

class EvaluatorBackend : public ExecutionBackend {
 public:
  // `device_count`: devices (replicas x partitions) a program may run on.
  explicit EvaluatorBackend(int64_t device_count = 1) : device_count_(device_count) {}

  std::string name() const override { return "evaluator"; }
  int64_t device_count() const override { return device_count_; }
  absl::StatusOr<BufferPtr> TransferToDevice(const Literal& literal, int64_t device) override;
  absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer) override;
  absl::StatusOr<BackendCompileResult> Compile(std::unique_ptr<HloModule> module,
                                               const BackendCompileOptions& options) override;
  absl::StatusOr<std::vector<std::vector<BufferPtr>>> Execute(
      const BackendExecutable& executable,
      absl::Span<const std::vector<BufferPtr>> arguments) override;

 private:
  int64_t device_count_;
};

}  // namespace systolic::lazy
