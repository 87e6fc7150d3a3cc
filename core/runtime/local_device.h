// One device of the engine: its description, its memory and its worker.
#pragma once

#include <mutex>

#include "core/runtime/backend.h"
#include "core/runtime/device_worker.h"
#include "core/runtime/memory_tracker.h"
#include "core/runtime/topology_description.h"

namespace systolic::runtime {

class LocalDevice {
 public:
  LocalDevice(DeviceDescription description, int64_t memory_limit_bytes)
      : description_(std::move(description)),
        memory_(description_.debug_string, memory_limit_bytes),
        worker_(description_.debug_string) {}

  const DeviceDescription& description() const { return description_; }
  int64_t id() const { return description_.id; }
  // "cpu:0", for messages.
  const std::string& name() const { return description_.debug_string; }
  MemoryTracker& memory() { return memory_; }
  const MemoryTracker& memory() const { return memory_; }
  DeviceWorker& worker() { return worker_; }

  void set_last_timing(ExecutionTiming timing) {
    std::lock_guard<std::mutex> lock(mu_);
    last_timing_ = std::move(timing);
  }
  ExecutionTiming last_timing() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_timing_;
  }

 private:
  const DeviceDescription description_;
  MemoryTracker memory_;
  mutable std::mutex mu_;
  ExecutionTiming last_timing_;
  // Last: destroyed first, so queued work finishes while the rest exists.
  DeviceWorker worker_;
};

}  // namespace systolic::runtime
