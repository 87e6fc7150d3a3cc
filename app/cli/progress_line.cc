#include "app/cli/progress_line.h"

#include <unistd.h>

#include <algorithm>

namespace systolic::cli {

ProgressLine::ProgressLine(std::FILE* stream)
    : stream_(stream), enabled_(isatty(fileno(stream)) != 0) {}

ProgressLine::~ProgressLine() { Finish(); }

void ProgressLine::Update(const std::string& stage, double fraction, const std::string& detail) {
  if (!enabled_) return;
  int percent = int(std::clamp(fraction, 0.0, 1.0) * 100.0 + 0.5);
  std::fprintf(stream_, "\r\033[K%-12s %3d%% %s", stage.c_str(), percent, detail.c_str());
  std::fflush(stream_);
  dirty_ = true;
}

void ProgressLine::Finish() {
  if (!enabled_ || !dirty_) return;
  std::fprintf(stream_, "\r\033[K");
  std::fflush(stream_);
  dirty_ = false;
}

}  // namespace systolic::cli
