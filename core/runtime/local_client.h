// The runtime engine inside a plugin: devices with a worker and a memory
// each, buffers that may be futures, compile with a cache and a log of
// compile events, and execution ordered by data dependencies. A Backend
// supplies what differs between plugins; the C ABI exposes this class.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/hlo_module.h"
#include "core/runtime/async_event.h"
#include "core/runtime/backend.h"
#include "core/runtime/compile_cache.h"
#include "core/runtime/compile_options.h"
#include "core/runtime/host_buffer_semantics.h"
#include "core/runtime/local_buffer.h"
#include "core/runtime/local_device.h"
#include "core/runtime/local_executable.h"

namespace systolic::runtime {

class LocalClient {
 public:
  static absl::StatusOr<std::unique_ptr<LocalClient>> Create(std::unique_ptr<Backend> backend,
                                                             const ClientConfig& config);
  // Waits for all enqueued work.
  ~LocalClient();

  Backend& backend() { return *backend_; }
  const std::vector<std::unique_ptr<LocalDevice>>& devices() const { return devices_; }
  absl::StatusOr<LocalDevice*> LookupDevice(int64_t id) const;
  const TopologyDescription& topology() const { return topology_; }
  const CompileCache& compile_cache() const { return cache_; }

  // `format` is "hlo" (HLO text) or "mlir" (StableHLO text).
  absl::StatusOr<std::shared_ptr<LocalExecutable>> CompileText(absl::string_view code,
                                                               absl::string_view format,
                                                               const CompileOptions& options);
  absl::StatusOr<std::shared_ptr<LocalExecutable>> Compile(std::unique_ptr<HloModule> module,
                                                           const CompileOptions& options);
  // Fills in the module's replica and partition counts, the client's chip
  // and topology, and the default device assignment; checks the devices.
  absl::StatusOr<CompileOptions> ResolveOptions(const HloModule& module,
                                                const CompileOptions& options) const;

  // `data` is dense and row-major. `done_with_host_buffer` fires when the
  // host data is no longer needed.
  absl::StatusOr<std::shared_ptr<LocalBuffer>> BufferFromHost(
      const void* data, const Shape& shape, HostBufferSemantics semantics, LocalDevice* device,
      std::string name, AsyncEventPtr* done_with_host_buffer);
  // Copies the value into `dst` (exactly the buffer's size) once it is
  // ready; the event fires when `dst` is filled.
  absl::StatusOr<AsyncEventPtr> ToHost(const LocalBuffer& buffer, void* dst, int64_t dst_size);
  absl::StatusOr<std::shared_ptr<LocalBuffer>> CopyToDevice(const LocalBuffer& buffer,
                                                            LocalDevice* device);

  struct ExecuteResult {
    // outputs[d][i]: output i on the executable's d-th device.
    std::vector<std::vector<std::shared_ptr<LocalBuffer>>> outputs;
    std::vector<AsyncEventPtr> done;  // one per device
  };
  // Returns at once. arguments[d][i]: argument leaf i on the d-th device.
  absl::StatusOr<ExecuteResult> Execute(std::shared_ptr<const LocalExecutable> executable,
                                        const std::vector<std::vector<LocalBuffer*>>& arguments,
                                        const std::vector<int64_t>& non_donatable = {});

 private:
  LocalClient(std::unique_ptr<Backend> backend, TopologyDescription topology);
  absl::Status CheckArguments(const LocalExecutable& executable,
                              const std::vector<std::vector<LocalBuffer*>>& arguments) const;
  std::shared_ptr<LocalBuffer> MakeBuffer(std::string name, Shape shape, LocalDevice* device,
                                          MemoryReservation reservation, AsyncEventPtr ready,
                                          std::shared_ptr<BufferValue> value);

  const std::unique_ptr<Backend> backend_;
  const TopologyDescription topology_;
  std::vector<std::unique_ptr<LocalDevice>> devices_;
  CompileCache cache_;
  std::atomic<int64_t> next_buffer_id_{0};
  // Work for several devices is enqueued in one global order (see
  // DeviceWorker).
  std::mutex enqueue_mu_;
};

}  // namespace systolic::runtime
