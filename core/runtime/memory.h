// A memory space a client's devices address ("device" on the host
// evaluator, "hbm" on the systolic chip).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/runtime/systolic_c_api.h"

namespace systolic::runtime {

class Device;

class Memory {
 public:
  Memory(SYSTOLIC_Memory* memory, int64_t id, std::string kind, std::string debug_string)
      : memory_(memory), id_(id), kind_(std::move(kind)), debug_string_(std::move(debug_string)) {}

  int64_t id() const { return id_; }
  const std::string& kind() const { return kind_; }
  const std::string& debug_string() const { return debug_string_; }
  const std::vector<Device*>& addressable_by_devices() const { return devices_; }
  SYSTOLIC_Memory* c_memory() const { return memory_; }

 private:
  friend class Client;
  SYSTOLIC_Memory* memory_;
  int64_t id_;
  std::string kind_;
  std::string debug_string_;
  std::vector<Device*> devices_;
};

}  // namespace systolic::runtime
