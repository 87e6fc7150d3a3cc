// A value on a device, possibly not computed yet: an execute's outputs are
// buffers at once and can be passed to the next execute before they are
// ready. Destroying the handle frees the device memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/literal.h"
#include "core/runtime/device.h"
#include "core/runtime/event.h"

namespace systolic::runtime {

class Buffer {
 public:
  // Takes ownership of `buffer` (destroyed again when its element type is one
  // this runtime's ABI version does not know).
  static absl::StatusOr<std::unique_ptr<Buffer>> Wrap(Client* client, SYSTOLIC_Buffer* buffer);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  int64_t id() const { return id_; }
  // The name given at creation ("weights", "step output 0"); may be empty.
  const std::string& name() const { return name_; }
  const Shape& shape() const { return shape_; }
  Device* device() const { return device_; }
  Memory* memory() const { return device_->default_memory(); }
  int64_t on_device_size_in_bytes() const { return size_bytes_; }
  Client* client() const { return client_; }

  // Deleted, or donated to an execute.
  bool IsDeleted() const;
  // Frees the device memory now; later uses are errors naming the buffer.
  void Delete();

  // Ready when the value is defined, or failed.
  Event GetReadyEvent() const;
  // The value, copied to the host once ready.
  Future<Literal> ToLiteral() const;
  absl::StatusOr<Literal> ToLiteralSync() const { return ToLiteral().Await(); }
  absl::StatusOr<std::unique_ptr<Buffer>> CopyToDevice(Device* device) const;

  SYSTOLIC_Buffer* c_buffer() const { return buffer_; }

 private:
  Buffer(Client* client, SYSTOLIC_Buffer* buffer) : client_(client), buffer_(buffer) {}

  Client* client_;
  SYSTOLIC_Buffer* buffer_;
  int64_t id_ = -1;
  std::string name_;
  Shape shape_;
  Device* device_ = nullptr;
  int64_t size_bytes_ = 0;
};

}  // namespace systolic::runtime
