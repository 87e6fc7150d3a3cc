#include "core/device/dataflow.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace systolic::device {

absl::StatusOr<Dataflow> ParseDataflow(absl::string_view name) {
  std::string key = absl::AsciiStrToLower(name);
  std::replace(key.begin(), key.end(), '-', '_');
  if (key == "os" || key == "output_stationary") return OUTPUT_STATIONARY;
  if (key == "ws" || key == "weight_stationary") return WEIGHT_STATIONARY;
  if (key == "is" || key == "input_stationary") return INPUT_STATIONARY;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown dataflow '", name, "' (expected os, ws or is: output-, weight- or input-stationary)"));
}

std::string DataflowShortName(Dataflow dataflow) {
  switch (dataflow) {
    case OUTPUT_STATIONARY: return "os";
    case WEIGHT_STATIONARY: return "ws";
    case INPUT_STATIONARY: return "is";
    default: return "unspecified";
  }
}

std::string DataflowLongName(Dataflow dataflow) {
  switch (dataflow) {
    case OUTPUT_STATIONARY: return "output-stationary";
    case WEIGHT_STATIONARY: return "weight-stationary";
    case INPUT_STATIONARY: return "input-stationary";
    default: return "unspecified";
  }
}

}  // namespace systolic::device
