// A one-shot completion signal with a status, shared by whoever produces a
// value (a device worker) and whoever waits for it (a dependent execute, a
// host transfer, the caller). The first status set wins; waiters and
// callbacks see it. Thread-safe.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"

namespace systolic::runtime {

class AsyncEvent {
 public:
  static std::shared_ptr<AsyncEvent> Create() { return std::make_shared<AsyncEvent>(); }
  static std::shared_ptr<AsyncEvent> CreateReady(absl::Status status = absl::OkStatus());

  // Marks the event ready; later calls are ignored. Callbacks run here, on
  // the calling thread, outside the lock.
  void Set(absl::Status status);

  bool IsReady() const;
  // Blocks until ready; returns the status.
  absl::Status Await() const;
  // The status of a ready event (OK while not ready).
  absl::Status status() const;

  // Runs `callback` once the event is ready (now, if it already is).
  void AndThen(std::function<void(const absl::Status&)> callback);

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool ready_ = false;
  absl::Status status_;
  std::vector<std::function<void(const absl::Status&)>> callbacks_;
};

using AsyncEventPtr = std::shared_ptr<AsyncEvent>;

}  // namespace systolic::runtime
