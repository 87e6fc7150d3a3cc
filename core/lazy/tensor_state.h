// What a Tensor handle points to: the node holding its current value (device
// data once executed, a pending operation until then), or the error that
// made it. The device keeps a registry of live states so mark_step() can
// find every tensor with pending work. Internal to core/lazy.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

class LazyDevice;

struct TensorState {
  TensorState(LazyDevice* device, NodePtr node, absl::Status status);
  ~TensorState();
  TensorState(const TensorState&) = delete;
  TensorState& operator=(const TensorState&) = delete;

  // Null once the device is gone.
  LazyDevice* device;
  int64_t id = -1;  // registry key, increasing in creation order
  NodePtr node;     // null for an error tensor
  absl::Status status;
  std::string name;  // the user's name for it ("weight"), if any
};

}  // namespace systolic::lazy
