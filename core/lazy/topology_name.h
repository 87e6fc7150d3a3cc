// A topology as users name it: a chip preset and the chips along each axis
// ("v5e:2x2", "v4:2x2x2"), or a single-chip preset ("edge"). The lazy front
// end needs only the device count and the axes (for meshes); the device
// layer owns what the chips are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace systolic::lazy {

struct TopologyName {
  std::string chip;           // "v5e"
  std::vector<int64_t> axes;  // {2, 2}; {1} for a single chip
  int64_t device_count() const;
  std::string ToString() const;  // "v5e:2x2"

  static absl::StatusOr<TopologyName> Parse(absl::string_view text);
};

}  // namespace systolic::lazy
