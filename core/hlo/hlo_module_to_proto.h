// An HLO module as XLA's HloModuleProto: computations callees first, each
// instruction after its operands, ids for every reference, and the module's
// configuration (entry layout, aliasing, donors, schedule, replica and
// partition counts).
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_module.pb.h"

namespace systolic {

// Errors: an attribute XLA's proto has no number for (see InstructionToProto).
absl::StatusOr<hlo_proto::HloModuleProto> ModuleToProto(const HloModule& module);

}  // namespace systolic
