// Names of the MXU dataflows, as users type them and as reports print them.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device/chip_spec.pb.h"

namespace systolic::device {

// "os" / "ws" / "is", or the long forms ("output_stationary",
// "OUTPUT_STATIONARY", "output-stationary"). Anything else is an error that
// lists the accepted names.
absl::StatusOr<Dataflow> ParseDataflow(absl::string_view name);

// "os", "ws", "is".
std::string DataflowShortName(Dataflow dataflow);
// "output-stationary", ...
std::string DataflowLongName(Dataflow dataflow);

}  // namespace systolic::device
