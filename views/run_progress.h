// Progress of a long job on a worker thread, read by the GUI thread: the
// fraction done, what it is doing, and a cancel flag the job checks.
// Qt-free, so the core's compile-and-run function can take it as it is.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

namespace systolic::views {

class RunProgress {
 public:
  // Called by the job; `fraction` in [0, 1].
  void Report(double fraction, std::string what);
  // Called by the GUI; the job stops at its next check.
  void Cancel() { cancelled_ = true; }
  bool cancelled() const { return cancelled_; }

  double fraction() const;
  std::string what() const;

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  double fraction_ = 0;
  std::string what_;
};

}  // namespace systolic::views
