// A compiled program, loaded on its devices. Its parameters and outputs are
// the array leaves of the entry's parameters and root (tuples flattened).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/shape.h"
#include "core/runtime/buffer.h"
#include "core/runtime/event.h"

namespace systolic::runtime {

struct ExecuteOptions {
  // Parameter leaves never to donate, even when the module aliases them.
  std::vector<int64_t> non_donatable_input_indices;
};

struct ExecuteResult {
  // outputs[d][i]: output i on the executable's d-th device.
  std::vector<std::vector<std::unique_ptr<Buffer>>> outputs;
  // One per device: ready when that device's part has run.
  std::vector<Event> done;
};

class Executable {
 public:
  // Takes ownership of `executable`.
  static absl::StatusOr<std::unique_ptr<Executable>> Wrap(Client* client,
                                                          SYSTOLIC_LoadedExecutable* executable);
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  const std::string& name() const { return name_; }
  // Of the module's canonical text and the compile options (32 hex digits).
  const std::string& fingerprint() const { return fingerprint_; }
  int64_t num_replicas() const { return num_replicas_; }
  int64_t num_partitions() const { return num_partitions_; }
  // One per replica x partition, replica-major.
  const std::vector<Device*>& addressable_devices() const { return devices_; }
  const std::vector<Shape>& parameter_shapes() const { return parameter_shapes_; }
  const std::vector<Shape>& output_shapes() const { return output_shapes_; }

  // Returns at once; argument_lists[d][i] is argument i on the d-th
  // addressable device. Arguments whose parameters the module aliases to an
  // output are donated: dead afterwards.
  absl::StatusOr<ExecuteResult> ExecuteOnDevices(
      absl::Span<const std::vector<Buffer*>> argument_lists,
      const ExecuteOptions& options = {}) const;
  // The single-device case: the outputs of device 0.
  absl::StatusOr<std::vector<std::unique_ptr<Buffer>>> Execute(
      const std::vector<Buffer*>& arguments, const ExecuteOptions& options = {}) const;

  SYSTOLIC_LoadedExecutable* c_executable() const { return executable_; }

 private:
  Executable(Client* client, SYSTOLIC_LoadedExecutable* executable)
      : client_(client), executable_(executable) {}

  Client* client_;
  SYSTOLIC_LoadedExecutable* executable_;
  std::string name_;
  std::string fingerprint_;
  int64_t num_replicas_ = 1;
  int64_t num_partitions_ = 1;
  std::vector<Device*> devices_;
  std::vector<Shape> parameter_shapes_;
  std::vector<Shape> output_shapes_;
};

}  // namespace systolic::runtime
