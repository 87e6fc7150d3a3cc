// A completion event from a plugin (an execute finished, a transfer done, a
// buffer defined), and a Future that pairs one with the value it makes
// ready. Move-only; destroying an event does not cancel the work.
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/runtime/plugin.h"

namespace systolic::runtime {

class Event {
 public:
  // An event that is already ready with `status`.
  explicit Event(absl::Status status = absl::OkStatus()) : status_(std::move(status)) {}
  Event(const Plugin* plugin, SYSTOLIC_Event* event) : plugin_(plugin), event_(event) {}
  Event(Event&& other) noexcept { *this = std::move(other); }
  Event& operator=(Event&& other) noexcept;
  ~Event();

  bool IsReady() const;
  // Blocks until ready; the work's status.
  absl::Status Await() const;
  // Runs `callback` once ready (at once if it is), on the thread that
  // readies it.
  void OnReady(std::function<void(absl::Status)> callback) const;

 private:
  const Plugin* plugin_ = nullptr;
  SYSTOLIC_Event* event_ = nullptr;
  absl::Status status_;  // when there is no plugin event
};

// A value that becomes available when its event is ready.
template <typename T>
class Future {
 public:
  explicit Future(absl::Status error) : event_(std::move(error)) {}
  Future(Event event, std::shared_ptr<T> value) : event_(std::move(event)), value_(std::move(value)) {}

  bool IsReady() const { return event_.IsReady(); }
  // Blocks; takes the value out (call once).
  absl::StatusOr<T> Await() {
    absl::Status status = event_.Await();
    if (!status.ok()) return status;
    return std::move(*value_);
  }
  const Event& event() const { return event_; }

 private:
  Event event_;
  std::shared_ptr<T> value_;
};

}  // namespace systolic::runtime
