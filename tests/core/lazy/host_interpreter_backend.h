// A test double of the execution backend: interprets, on the host, the HLO
// the lazy front end emits (elementwise ops, data movement, reduce, dot,
// convolution, windows, gather / scatter, collectives over replicas run in
// lock step, Sharding custom-calls as identities). Floating-point math is
// done in double and rounded to the element type on store. It stands in for
// the reference evaluator in tests until core/eval exists; its random bits
// are a splitmix64 stream, not three-fry.
#pragma once

#include <memory>

#include "core/lazy/execution_backend.h"

namespace systolic::lazy::testing {

class HostInterpreterBackend : public ExecutionBackend {
 public:
  explicit HostInterpreterBackend(int64_t device_count = 1) : device_count_(device_count) {}

  std::string name() const override { return "host-interpreter"; }
  int64_t device_count() const override { return device_count_; }
  absl::StatusOr<BufferPtr> TransferToDevice(const Literal& literal, int64_t device) override;
  absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer) override;
  absl::StatusOr<BackendCompileResult> Compile(std::unique_ptr<HloModule> module,
                                               const BackendCompileOptions& options) override;
  absl::StatusOr<std::vector<std::vector<BufferPtr>>> Execute(
      const BackendExecutable& executable,
      absl::Span<const std::vector<BufferPtr>> arguments) override;

  int64_t compile_count() const { return compile_count_; }
  int64_t execute_count() const { return execute_count_; }

 private:
  int64_t device_count_;
  int64_t compile_count_ = 0;
  int64_t execute_count_ = 0;
};

}  // namespace systolic::lazy::testing
