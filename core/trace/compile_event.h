// One compile request: a cache hit or a miss with its cause ("argument 0:
// now f32[16,128], before f32[8,128]") and the two programs compared.
#pragma once

#include <cstdint>
#include <string>

namespace systolic::trace {

struct CompileEvent {
  int64_t timestamp_ns = 0;  // since the timeline origin
  int64_t step = -1;
  int64_t program_id = -1;
  std::string fingerprint;
  bool cache_hit = false;
  int64_t compile_time_ns = 0;
  std::string cause;
  // The nearest cached program this one was compared with (-1: none).
  int64_t compared_program_id = -1;
  friend bool operator==(const CompileEvent&, const CompileEvent&) = default;
};

}  // namespace systolic::trace
