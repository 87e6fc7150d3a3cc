// A byte count in words with the binary unit that suits it: "512 B",
// "4.0 KiB", "126.0 GiB". A double, so that impossible shapes still print.
#pragma once

#include <string>

namespace systolic {

std::string HumanBytes(double bytes);

}  // namespace systolic
