// A one-line progress indicator on a terminal ("compiling  42% [pass 7/17]"),
// redrawn in place; silent when the stream is not a terminal.
#pragma once

#include <cstdio>
#include <string>

namespace systolic::cli {

class ProgressLine {
 public:
  explicit ProgressLine(std::FILE* stream = stderr);
  ~ProgressLine();
  // fraction in [0, 1]
  void Update(const std::string& stage, double fraction, const std::string& detail = "");
  void Finish();

 private:
  std::FILE* stream_;
  bool enabled_;
  bool dirty_ = false;
};

}  // namespace systolic::cli
