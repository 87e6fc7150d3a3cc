// Reading chip specs: a preset by name, or a user's protobuf text file.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device/chip_spec.pb.h"

namespace systolic::device {

// The preset names: "v2", "v3", "v4", "v5e", "v5p", "edge".
std::vector<std::string> ChipPresetNames();

// Parses and validates a spec in protobuf text format. `source` names the
// text in errors: "<source>:3:7: Unknown enumeration value ..." for text
// errors (1-based line:column), "<source>: mxu.rows is missing" for invalid
// specs.
absl::StatusOr<ChipSpec> ParseChipSpec(absl::string_view text, absl::string_view source);

// A preset name, else the path of a spec file.
absl::StatusOr<ChipSpec> LoadChipSpec(absl::string_view preset_or_path);

// The spec in protobuf text format (what a profile stores, what ParseChipSpec
// reads back).
std::string ChipSpecToText(const ChipSpec& spec);

}  // namespace systolic::device
