#include "core/runtime/topology_text.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace systolic::runtime {

absl::StatusOr<TopologyText> ParseTopologyText(absl::string_view text) {
  TopologyText topology;
  absl::string_view shape = text;
  if (size_t colon = text.find(':'); colon != absl::string_view::npos) {
    topology.chip = std::string(text.substr(0, colon));
    shape = text.substr(colon + 1);
  }
  std::vector<absl::string_view> parts = absl::StrSplit(shape, 'x');
  if (parts.empty() || parts.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology '", text, "': expected [chip:]X[xY[xZ]], e.g. v4:2x2x1"));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(parts[i], &n) || n < 1) {
      return absl::InvalidArgumentError(absl::StrCat("topology '", text, "': '", parts[i],
                                                     "' is not a positive chip count"));
    }
    topology.bounds[i] = n;
  }
  return topology;
}

}  // namespace systolic::runtime
