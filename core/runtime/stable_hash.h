// A hash that is the same in every run and on every machine (unlike
// absl::Hash, which is seeded per process), so fingerprints can be compared
// across saved profiles.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic::runtime {

// 128-bit FNV-1a of `text`, as 32 lowercase hex digits.
std::string StableFingerprint(absl::string_view text);

}  // namespace systolic::runtime
