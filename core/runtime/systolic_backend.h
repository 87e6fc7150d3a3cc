// The `systolic` plugin's backend: devices are the TensorCores of simulated
// chips (chip spec from core/device: presets or spec files) laid out in a
// topology ("v4:2x2x1"), each with its share of the chip's HBM as its memory
// limit. Values are computed by the reference evaluator. Timing is
// simulated: compiling an executable also compiles it for the chip, lowers it
// onto the chip's units and simulates it once (core/device/program_timing.h);
// every execution reports that time. When the module cannot be lowered
// (e.g. it does not fit HBM) executions report no time and say why.
#pragma once

#include <memory>


#include "core/runtime/backend.h"

namespace systolic::runtime {

std::unique_ptr<Backend> NewSystolicBackend();

}  // namespace systolic::runtime
