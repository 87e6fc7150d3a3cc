#include "core/hlo/collective_device_list.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic {

CollectiveDeviceList::CollectiveDeviceList(TileAssignment iota) {
  const auto& dims = iota.dimensions();
  int64_t groups = dims.empty() ? 0 : dims[0];
  int64_t size = dims.size() > 1 ? dims[1] : 1;
  const auto& devices = iota.devices();
  for (int64_t g = 0; g < groups; ++g) {
    groups_.emplace_back(devices.begin() + g * size, devices.begin() + (g + 1) * size);
  }
  iota_ = std::move(iota);
}

std::string CollectiveDeviceList::ToString() const {
  if (iota_) return iota_->ToString();
  std::vector<std::string> parts;
  for (const auto& g : groups_) parts.push_back(absl::StrCat("{", absl::StrJoin(g, ","), "}"));
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

}  // namespace systolic
