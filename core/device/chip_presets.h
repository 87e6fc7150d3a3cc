// The chip presets shipped with the library: the text of
// core/device/presets/*.textproto, embedded at build time by
// embed_presets.cmake.
#pragma once

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace systolic::device {

struct EmbeddedChipPreset {
  const char* name;  // "v4"
  const char* text;  // the protobuf text of its ChipSpec
};

// In the order DESIGN.md lists them (v2, v3, v4, v5e, v5p, v6e, then edge).
absl::Span<const EmbeddedChipPreset> EmbeddedChipPresets();

}  // namespace systolic::device
