// A value on one device of the engine. It may still be a future: its value
// is written by the work that defines it, then its ready event fires (with
// an error if that work failed). Deleting or donating it frees its memory at
// once; work already enqueued keeps reading the value it took.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/literal.h"
#include "core/runtime/async_event.h"
#include "core/runtime/local_device.h"
#include "core/runtime/memory_tracker.h"

namespace systolic::runtime {

// The storage: written once, before the buffer's ready event is set.
struct BufferValue {
  Literal literal;
};

// What work that reads a buffer holds on to.
struct BufferUse {
  std::shared_ptr<BufferValue> value;
  AsyncEventPtr ready;
};

class LocalBuffer {
 public:
  LocalBuffer(int64_t id, std::string name, Shape shape, LocalDevice* device,
              MemoryReservation reservation, AsyncEventPtr ready,
              std::shared_ptr<BufferValue> value);

  int64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  const Shape& shape() const { return shape_; }
  LocalDevice* device() const { return device_; }
  int64_t size_bytes() const { return size_bytes_; }
  const AsyncEventPtr& ready_event() const { return ready_; }
  // "buffer #7 'weights'" or "buffer #7".
  std::string Label() const;

  // For work that reads the value; an error naming the buffer if it was
  // deleted or donated.
  absl::StatusOr<BufferUse> AcquireUse() const;
  // Marks the buffer donated to `consumer` ("execute of 'step' (program 2)")
  // and hands over its memory; an error if it is already dead.
  absl::StatusOr<MemoryReservation> Donate(const std::string& consumer);
  // Gives back a donation that did not happen (a later step failed).
  void UndoDonation(MemoryReservation reservation, std::shared_ptr<BufferValue> value);
  void Delete();
  bool IsDeleted() const;

  // Bytes an array of `shape` takes on a device.
  static int64_t SizeOf(const Shape& shape);

 private:
  absl::Status DeadError() const;  // requires mu_

  const int64_t id_;
  const std::string name_;
  const Shape shape_;
  LocalDevice* const device_;
  const int64_t size_bytes_;
  const AsyncEventPtr ready_;

  mutable std::mutex mu_;
  std::shared_ptr<BufferValue> value_;  // null once dead
  MemoryReservation reservation_;
  std::string donated_to_;  // "" unless donated
};

}  // namespace systolic::runtime
