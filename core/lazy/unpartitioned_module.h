// The global program of an SPMD module, for backends without the SPMD
// partitioner: one partition, and every Sharding custom-call replaced by its
// operand (sharding annotations say how to split values, not what they
// are).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"

namespace systolic::lazy {

absl::StatusOr<std::unique_ptr<HloModule>> UnpartitionedModule(const HloModule& module);

}  // namespace systolic::lazy
