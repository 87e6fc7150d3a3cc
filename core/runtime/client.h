// The runtime's C++ API, in the PJRT model: a client of one plugin (chosen
// by name, $SYSTOLIC_DEVICE, or "cpu"), which owns devices and memories,
// compiles programs into executables (through a compile cache that logs
// every request with its recompilation cause), and moves values between the
// host and the devices. Everything goes through the plugin's C ABI.
// Thread-safe. Buffers and executables must be destroyed before their
// client.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"
#include "core/runtime/backend.h"
#include "core/runtime/buffer.h"
#include "core/runtime/compile_options.h"
#include "core/runtime/device.h"
#include "core/runtime/event.h"
#include "core/runtime/executable.h"
#include "core/runtime/host_buffer_semantics.h"
#include "core/runtime/memory.h"
#include "core/runtime/plugin.h"
#include "core/runtime/topology_description.h"
#include "core/trace/compile_event.h"

namespace systolic::runtime {

struct ClientOptions {
  // Plugin name ("cpu", "systolic") or path; empty: $SYSTOLIC_DEVICE, else
  // "cpu".
  std::string device;
  // Folders searched before $SYSTOLIC_PLUGIN_PATH and the defaults.
  std::vector<std::string> plugin_search_path;
  std::string chip;      // chip preset or spec file; empty: the plugin's default
  std::string topology;  // "v4:2x2x2"; empty: one chip
  int64_t num_devices = 0;          // 0: the plugin's default
  int64_t memory_limit_bytes = -1;  // -1: the chip's HBM; 0: unlimited
};

class Client {
 public:
  static absl::StatusOr<std::unique_ptr<Client>> Create(const ClientOptions& options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const Plugin& plugin() const { return *plugin_; }
  const std::string& platform_name() const { return platform_name_; }
  const std::string& platform_version() const { return platform_version_; }
  const std::vector<Device*>& devices() const { return devices_; }
  const std::vector<Device*>& addressable_devices() const { return addressable_devices_; }
  const std::vector<Memory*>& memories() const { return memories_; }
  absl::StatusOr<Device*> LookupDevice(int64_t id) const;
  const TopologyDescription& topology() const { return topology_; }

  absl::StatusOr<std::unique_ptr<Executable>> Compile(const HloModule& module,
                                                      const CompileOptions& options = {});
  // `format`: "hlo" (HLO text) or "mlir" (StableHLO text).
  absl::StatusOr<std::unique_ptr<Executable>> CompileText(absl::string_view text,
                                                          absl::string_view format,
                                                          const CompileOptions& options = {});

  // `data` is dense and row-major, `shape` an array. With
  // kImmutableUntilTransferCompletes the data must stay untouched until
  // `done_with_host_buffer` is ready.
  absl::StatusOr<std::unique_ptr<Buffer>> BufferFromHostBuffer(
      const void* data, const Shape& shape, HostBufferSemantics semantics, Device* device,
      const std::string& name = "", Event* done_with_host_buffer = nullptr);
  absl::StatusOr<std::unique_ptr<Buffer>> BufferFromHostLiteral(const Literal& literal,
                                                                Device* device,
                                                                const std::string& name = "");

  // Every compile request so far, in order.
  absl::StatusOr<std::vector<trace::CompileEvent>> CompileEvents() const;
  // The simulated time of the last execute on `device` (unavailable on
  // plugins that do not time programs, with a note saying why).
  absl::StatusOr<ExecutionTiming> LastExecutionTiming(const Device& device) const;

  // For the C++ wrappers.
  Device* DeviceFor(SYSTOLIC_Device* device) const;
  SYSTOLIC_Client* c_client() const { return client_; }

 private:
  Client() = default;

  const Plugin* plugin_ = nullptr;
  SYSTOLIC_Client* client_ = nullptr;
  std::string platform_name_;
  std::string platform_version_;
  std::vector<std::unique_ptr<Device>> device_storage_;
  std::vector<std::unique_ptr<Memory>> memory_storage_;
  std::vector<Device*> devices_;
  std::vector<Device*> addressable_devices_;
  std::vector<Memory*> memories_;
  absl::flat_hash_map<SYSTOLIC_Device*, Device*> by_handle_;
  TopologyDescription topology_;
};

}  // namespace systolic::runtime
