#include "core/runtime/device_worker.h"

namespace systolic::runtime {

DeviceWorker::DeviceWorker(std::string name) : name_(std::move(name)) {
  thread_ = std::thread([this] { Loop(); });
}

DeviceWorker::~DeviceWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void DeviceWorker::Enqueue(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

bool DeviceWorker::TryRunInline(const std::function<void()>& task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!queue_.empty() || running_task_) return false;
    running_task_ = true;
  }
  task();
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_task_ = false;
  }
  cv_.notify_all();
  return true;
}

bool DeviceWorker::IsIdle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.empty() && !running_task_;
}

void DeviceWorker::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    // An inline run (TryRunInline) holds the device: wait for it too.
    cv_.wait(lock, [this] { return (stopping_ || !queue_.empty()) && !running_task_; });
    if (queue_.empty()) return;  // stopping, and nothing left to run
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    running_task_ = true;
    lock.unlock();
    task();
    task = nullptr;  // release what the task captured before going idle
    lock.lock();
    running_task_ = false;
  }
}

}  // namespace systolic::runtime
