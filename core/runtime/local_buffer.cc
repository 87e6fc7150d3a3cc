#include "core/runtime/local_buffer.h"

#include "absl/strings/str_cat.h"

namespace systolic::runtime {

LocalBuffer::LocalBuffer(int64_t id, std::string name, Shape shape, LocalDevice* device,
                         MemoryReservation reservation, AsyncEventPtr ready,
                         std::shared_ptr<BufferValue> value)
    : id_(id),
      name_(std::move(name)),
      shape_(std::move(shape)),
      device_(device),
      size_bytes_(SizeOf(shape_)),
      ready_(std::move(ready)),
      value_(std::move(value)),
      reservation_(std::move(reservation)) {
  reservation_.Relabel(Label());
}

int64_t LocalBuffer::SizeOf(const Shape& shape) {
  if (!shape.IsArray()) return 0;
  return shape.num_elements() * primitive_util::ByteWidth(shape.element_type());
}

std::string LocalBuffer::Label() const {
  if (name_.empty()) return absl::StrCat("buffer #", id_);
  return absl::StrCat("buffer #", id_, " '", name_, "'");
}

absl::Status LocalBuffer::DeadError() const {
  if (!donated_to_.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(Label(), " (", shape_.ToString(), " on ", device_->name(),
                     ") was donated to ", donated_to_, " and can no longer be used"));
  }
  return absl::FailedPreconditionError(absl::StrCat(
      Label(), " (", shape_.ToString(), " on ", device_->name(), ") has been deleted"));
}

absl::StatusOr<BufferUse> LocalBuffer::AcquireUse() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (value_ == nullptr) return DeadError();
  return BufferUse{value_, ready_};
}

absl::StatusOr<MemoryReservation> LocalBuffer::Donate(const std::string& consumer) {
  std::lock_guard<std::mutex> lock(mu_);
  if (value_ == nullptr) return DeadError();
  value_ = nullptr;
  donated_to_ = consumer;
  return std::move(reservation_);
}

void LocalBuffer::UndoDonation(MemoryReservation reservation,
                               std::shared_ptr<BufferValue> value) {
  std::lock_guard<std::mutex> lock(mu_);
  donated_to_.clear();
  value_ = std::move(value);
  reservation_ = std::move(reservation);
}

void LocalBuffer::Delete() {
  std::lock_guard<std::mutex> lock(mu_);
  value_ = nullptr;
  reservation_.Release();
}

bool LocalBuffer::IsDeleted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return value_ == nullptr;
}

}  // namespace systolic::runtime
