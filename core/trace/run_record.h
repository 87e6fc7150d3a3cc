// One execution session and its steps (each step ran one program).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace systolic::trace {

struct StepRecord {
  int64_t number = 0;
  int64_t program_id = -1;
  int64_t start_ps = 0;
  int64_t duration_ps = 0;
  friend bool operator==(const StepRecord&, const StepRecord&) = default;
};

struct RunRecord {
  int64_t id = 0;
  std::string name;
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  std::vector<StepRecord> steps;
  friend bool operator==(const RunRecord&, const RunRecord&) = default;
};

}  // namespace systolic::trace
