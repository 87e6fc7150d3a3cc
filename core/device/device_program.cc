#include "core/device/device_program.h"

#include <utility>

namespace systolic::device {

VmemBufferId CoreProgram::AddVmemBuffer(std::string name, int64_t bytes) {
  buffers_.push_back({std::move(name), bytes});
  return VmemBufferId(buffers_.size() - 1);
}

OpId CoreProgram::Add(DeviceOp op) {
  ops_.push_back(std::move(op));
  return OpId(ops_.size() - 1);
}

}  // namespace systolic::device
