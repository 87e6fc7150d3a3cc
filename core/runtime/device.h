// A device of a client: a core of a simulated chip (with the chip's
// coordinates in the topology and the core's index on it) or the host
// evaluator. Owned by its Client.
#pragma once

#include "absl/status/statusor.h"
#include "core/runtime/memory.h"
#include "core/runtime/memory_tracker.h"
#include "core/runtime/plugin.h"
#include "core/runtime/topology_description.h"

namespace systolic::runtime {

class Client;

class Device {
 public:
  Device(Client* client, const Plugin* plugin, SYSTOLIC_Device* device,
         DeviceDescription description, bool addressable)
      : client_(client),
        plugin_(plugin),
        device_(device),
        description_(std::move(description)),
        addressable_(addressable) {}

  int64_t id() const { return description_.id; }
  int64_t process_index() const { return description_.process_index; }
  const std::string& kind() const { return description_.kind; }
  const std::string& debug_string() const { return description_.debug_string; }
  const ChipCoords& coords() const { return description_.coords; }
  int64_t core_on_chip() const { return description_.core_on_chip; }
  bool is_addressable() const { return addressable_; }
  const DeviceDescription& description() const { return description_; }
  Memory* default_memory() const { return default_memory_; }
  Client* client() const { return client_; }

  // Bytes in use, peak and limit (the chip's HBM, when it has one).
  absl::StatusOr<MemoryStats> memory_stats() const;

  SYSTOLIC_Device* c_device() const { return device_; }

 private:
  friend class Client;
  Client* client_;
  const Plugin* plugin_;
  SYSTOLIC_Device* device_;
  DeviceDescription description_;
  bool addressable_;
  Memory* default_memory_ = nullptr;
};

}  // namespace systolic::runtime
