#include "views/run_progress.h"

#include <algorithm>

namespace systolic::views {

void RunProgress::Report(double fraction, std::string what) {
  std::lock_guard<std::mutex> lock(mutex_);
  fraction_ = std::clamp(fraction, 0.0, 1.0);
  what_ = std::move(what);
}

double RunProgress::fraction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return fraction_;
}

std::string RunProgress::what() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return what_;
}

}  // namespace systolic::views
