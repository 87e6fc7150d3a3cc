#include "core/lazy/topology_name.h"

#include <numeric>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace systolic::lazy {

int64_t TopologyName::device_count() const {
  return std::accumulate(axes.begin(), axes.end(), int64_t{1}, std::multiplies<int64_t>());
}

std::string TopologyName::ToString() const {
  if (axes.size() == 1 && axes[0] == 1) return chip;
  return absl::StrCat(chip, ":", absl::StrJoin(axes, "x"));
}

absl::StatusOr<TopologyName> TopologyName::Parse(absl::string_view text) {
  TopologyName topology;
  const size_t colon = text.find(':');
  topology.chip = std::string(text.substr(0, colon));
  if (topology.chip.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("topology '", text, "' names no chip"));
  }
  if (colon == absl::string_view::npos) {
    topology.axes = {1};
    return topology;
  }
  for (absl::string_view part : absl::StrSplit(text.substr(colon + 1), 'x')) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(part, &n) || n < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology '", text, "': expected chips per axis like 2x2 or 2x2x2, got '", part, "'"));
    }
    topology.axes.push_back(n);
  }
  return topology;
}

}  // namespace systolic::lazy
