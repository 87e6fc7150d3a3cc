// What a custom call costs on the chip, by its target: the calls that are
// bookkeeping for XLA's partitioner and layout passes cost nothing, fused
// attention kernels cost the MXU work and HBM traffic of a tiled (flash)
// attention computed from their operand shapes, and any other target is
// unknown: the caller charges it for moving its operands and results
// through HBM and says so.
#pragma once

#include <optional>
#include <string>

#include "core/device/kernel_plan.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic::device {

// The plan of a custom call whose target has a cost rule; nullopt when the
// target is unknown (or its operands are not in the form the rule reads).
std::optional<KernelPlan> PlanCustomCall(const HloInstruction& custom_call);

// True for targets that are annotations only (Sharding, SPMDFullToShardShape,
// SPMDShardToFullShape, ...): nothing runs.
bool IsBookkeepingCustomCall(const std::string& target);

}  // namespace systolic::device
