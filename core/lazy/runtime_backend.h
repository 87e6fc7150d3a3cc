// The execution backend on the PJRT-style runtime client: values are
// runtime buffers on the client's devices, programs compile through the
// client (whose compile cache logs every request with its own cause, which
// the front end's compile events then carry), and executes run on one
// device per replica. SPMD programs are partitioned by the client's plugin
// and run on one device per partition.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "core/lazy/execution_backend.h"
#include "core/runtime/client.h"

namespace systolic::lazy {

class RuntimeBackend : public ExecutionBackend {
 public:
  explicit RuntimeBackend(std::shared_ptr<runtime::Client> client) : client_(std::move(client)) {}
  // A client made with `options` ("cpu" or "systolic", chip, topology...).
  static absl::StatusOr<std::shared_ptr<RuntimeBackend>> Create(
      const runtime::ClientOptions& options);

  runtime::Client& client() const { return *client_; }
  std::string name() const override;
  int64_t device_count() const override;
  absl::StatusOr<BufferPtr> TransferToDevice(const Literal& literal, int64_t device) override;
  absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer) override;
  absl::StatusOr<BackendCompileResult> Compile(std::unique_ptr<HloModule> module,
                                               const BackendCompileOptions& options) override;
  absl::StatusOr<std::vector<std::vector<BufferPtr>>> Execute(
      const BackendExecutable& executable,
      absl::Span<const std::vector<BufferPtr>> arguments) override;

 private:
  absl::StatusOr<std::vector<std::vector<BufferPtr>>> ExecutePartitioned(
      const BackendExecutable& executable,
      const std::vector<std::vector<runtime::Buffer*>>& whole);

  // Buffers and executables hold the client: it outlives them.
  std::shared_ptr<runtime::Client> client_;
};

}  // namespace systolic::lazy
