// The arguments of a program's devices, as `eval` and `run` take them: one
// .npy file per parameter (the same on every device), or random values from
// the seed (each device its own stream).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/literal.h"

namespace systolic::cli {

// One entry per device, or a single entry every device shares (files).
// Errors: a file count other than the parameter count, an unreadable file.
absl::StatusOr<std::vector<std::vector<Literal>>> LoadDeviceArguments(
    const HloComputation& entry, const std::vector<std::string>& arg_files, int64_t seed,
    int64_t devices);

}  // namespace systolic::cli
