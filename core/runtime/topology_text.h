// The text form of a topology a user types: "v4:2x2x1" (chip and chips per
// axis) or just "4x2".
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace systolic::runtime {

struct TopologyText {
  std::string chip;  // "" when not given
  std::array<int64_t, 3> bounds = {1, 1, 1};
};

absl::StatusOr<TopologyText> ParseTopologyText(absl::string_view text);

}  // namespace systolic::runtime
