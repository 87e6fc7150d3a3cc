// The one thread that runs a device's work, in the order it was enqueued:
// executes, host-to-device copies that keep the host data, device-to-device
// copies. Tasks may block on the values they read; the engine enqueues work
// for all devices in one global order, so every task only waits for work
// enqueued before it and the workers cannot deadlock.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace systolic::runtime {

class DeviceWorker {
 public:
  explicit DeviceWorker(std::string name);
  // Runs everything still queued, then stops the thread.
  ~DeviceWorker();
  DeviceWorker(const DeviceWorker&) = delete;
  DeviceWorker& operator=(const DeviceWorker&) = delete;

  void Enqueue(std::function<void()> task);
  // Runs `task` on the calling thread if the device is idle (nothing queued
  // or running), keeping the worker off the device meanwhile; false (and
  // `task` not run) otherwise.
  bool TryRunInline(const std::function<void()>& task);
  // True when nothing is queued or running.
  bool IsIdle() const;

 private:
  void Loop();

  const std::string name_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool running_task_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace systolic::runtime
