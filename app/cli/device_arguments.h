// The arguments of a program's devices, as `eval` and `run` take them: one
// .npy file per parameter (the same on every device), else the values the
// program file itself gives (an HloSnapshot's arguments, shared too), else
// random values from the seed (each device its own stream).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/literal.h"

namespace systolic::cli {

// One entry per device, or a single entry every device shares (files).
// Errors: a file or value count other than the parameter count, an
// unreadable file, a file's value of another shape than its parameter.
absl::StatusOr<std::vector<std::vector<Literal>>> LoadDeviceArguments(
    const HloComputation& entry, const std::vector<std::string>& arg_files,
    absl::Span<const Literal> file_arguments, int64_t seed, int64_t devices);

}  // namespace systolic::cli
