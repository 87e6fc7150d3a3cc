// A tensor's value on the devices: one buffer per replica (data parallel
// programs keep a copy, or a shard, on every replica), or a single global
// buffer for SPMD programs, whose backend splits values by their shardings.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/hlo/shape.h"
#include "core/lazy/execution_backend.h"

namespace systolic::lazy {

class DeviceData {
 public:
  DeviceData(Shape shape, std::vector<BufferPtr> buffers)
      : shape_(std::move(shape)), buffers_(std::move(buffers)) {}

  const Shape& shape() const { return shape_; }
  const std::vector<BufferPtr>& buffers() const { return buffers_; }
  const BufferPtr& buffer(int64_t device) const { return buffers_[device]; }
  int64_t device_count() const { return int64_t(buffers_.size()); }

 private:
  Shape shape_;
  std::vector<BufferPtr> buffers_;
};

}  // namespace systolic::lazy
