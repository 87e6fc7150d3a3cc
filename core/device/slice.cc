#include "core/device/slice.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device/chip_spec_loader.h"
#include "core/hlo/status_macros.h"
#include "core/trace/device_topology.h"

namespace systolic::device {
absl::StatusOr<Slice> MakeSlice(ChipSpec spec, std::vector<int64_t> bounds, int64_t slices) {
  // "4x4" comes back as 4x4x1: the trailing axes of one chip were not written.
  while (bounds.size() > 1 && bounds.back() == 1) bounds.pop_back();
  SYSTOLIC_ASSIGN_OR_RETURN(IciTopology topology, IciTopology::Create(spec, bounds, slices));
  return Slice{std::move(spec), std::move(topology)};
}

absl::StatusOr<TopologyText> ParseTopologyText(absl::string_view text) {
  TopologyText topology;
  absl::string_view shape = text;
  if (size_t colon = text.find(':'); colon != absl::string_view::npos) {
    topology.chip = std::string(text.substr(0, colon));
    shape = text.substr(colon + 1);
  }
  if (size_t star = shape.find('*'); star != absl::string_view::npos) {
    if (!absl::SimpleAtoi(shape.substr(star + 1), &topology.slices) || topology.slices < 1) {
      return absl::InvalidArgumentError(absl::StrCat("topology '", text, "': '",
                                                     shape.substr(star + 1),
                                                     "' is not a positive slice count"));
    }
    shape = shape.substr(0, star);
  }
  std::vector<absl::string_view> parts = absl::StrSplit(shape, 'x');
  if (parts.empty() || parts.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology '", text, "': expected [chip:]X[xY[xZ]][*SLICES], e.g. v4:2x2x1 or v5e:16x16*4"));
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

std::string Slice::Name() const { return absl::StrCat(spec.name(), ":", topology.ShapeString()); }

absl::StatusOr<Slice> LoadSlice(absl::string_view text, absl::string_view default_chip) {
  SYSTOLIC_ASSIGN_OR_RETURN(TopologyText parsed, ParseTopologyText(text));
  SYSTOLIC_ASSIGN_OR_RETURN(ChipSpec spec,
                            LoadChipSpec(parsed.chip.empty() ? default_chip : parsed.chip));
  return MakeSlice(std::move(spec), {parsed.bounds.begin(), parsed.bounds.end()}, parsed.slices);
}

absl::StatusOr<Slice> SliceForDevices(const ChipSpec& spec, int64_t devices) {
  const trace::TopologyRecord shape = trace::TopologyForDevices(devices);
  return MakeSlice(spec, {shape.dims.begin(), shape.dims.end()});
}

}  // namespace systolic::device
