#include "core/runtime/topology_description.h"

#include "absl/strings/str_cat.h"

namespace systolic::runtime {

std::string TopologyDescription::ToString() const {
  return absl::StrCat(chip, ":", bounds[0], "x", bounds[1], "x", bounds[2]);
}

}  // namespace systolic::runtime
