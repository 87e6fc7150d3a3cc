// The chip a profile ran on: its spec as the device layer's protobuf text
// (kept verbatim, so the profile needs no knowledge of that schema) and the
// few figures views use directly (rooflines, utilisation, memory charts).
#pragma once

#include <cstdint>
#include <string>

namespace systolic::trace {

struct ChipSummary {
  std::string name;       // "v4", or a user's spec file name
  std::string spec_text;  // the chip spec in protobuf text format
  double peak_flops_per_second = 0;
  int64_t hbm_bytes = 0;
  double hbm_bandwidth_bytes_per_second = 0;
  double clock_hz = 0;
  int32_t cores_per_chip = 0;
  int32_t mxus_per_core = 0;
  int32_t mxu_rows = 0;
  int32_t mxu_cols = 0;
  friend bool operator==(const ChipSummary&, const ChipSummary&) = default;
};

}  // namespace systolic::trace
