#include "core/runtime/async_event.h"

namespace systolic::runtime {

std::shared_ptr<AsyncEvent> AsyncEvent::CreateReady(absl::Status status) {
  auto event = Create();
  event->Set(std::move(status));
  return event;
}

void AsyncEvent::Set(absl::Status status) {
  std::vector<std::function<void(const absl::Status&)>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ready_) return;
    ready_ = true;
    status_ = std::move(status);
    callbacks.swap(callbacks_);
  }
  cv_.notify_all();
  // status_ no longer changes once ready, so reading it unlocked is safe.
  for (auto& callback : callbacks) callback(status_);
}

bool AsyncEvent::IsReady() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_;
}

absl::Status AsyncEvent::Await() const {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return ready_; });
  return status_;
}

absl::Status AsyncEvent::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_ ? status_ : absl::OkStatus();
}

void AsyncEvent::AndThen(std::function<void(const absl::Status&)> callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ready_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback(status_);
}

}  // namespace systolic::runtime
