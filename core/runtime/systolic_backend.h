// The `systolic` plugin's backend: devices are the TensorCores of simulated
// chips (chip spec from core/device: presets or spec files) laid out in a
// topology ("v4:2x2x1"), each with its share of the chip's HBM as its memory
// limit. Values are computed by the reference evaluator. Timing is pending:
// the device layer simulates device programs, but nothing lowers whole HLO
// modules to them yet, so executions report no simulated time (never a
// made-up one).
#pragma once

#include <memory>


#include "core/runtime/backend.h"

namespace systolic::runtime {

std::unique_ptr<Backend> NewSystolicBackend();

}  // namespace systolic::runtime
