// Cuts a kernel plan into the steps each TensorCore runs: GEMMs into MXU
// passes with M / N / K tiled to multiples of the array (the MXU model pads
// partial folds), element-wise work into chunks for the vector unit. Tiles
// are sized so that a stream's double-buffered operands and outputs fit its
// share of `vmem_budget`, and spread over the cores (and a core's MXUs)
// when the kernel is big enough.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/core_program_builder.h"
#include "core/device/kernel_plan.h"

namespace systolic::device {

// Steps per core (index = core; a core may get none).
using CoreSteps = std::vector<std::vector<TileStep>>;

// `instruction` names errors. ResourceExhausted when even the smallest tile
// does not fit.
absl::StatusOr<CoreSteps> TileKernel(const std::string& instruction, const KernelPlan& plan,
                                     const ChipSpec& spec, int64_t vmem_budget);

}  // namespace systolic::device
