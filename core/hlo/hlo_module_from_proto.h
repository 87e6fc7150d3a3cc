// An HLO module from XLA's HloModuleProto. References by id (operands,
// control predecessors, called computations, roots, the entry, schedules)
// are resolved through maps built while reading; one that names nothing is
// an error naming the instruction or computation, never a crash.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_module.pb.h"

namespace systolic {

absl::StatusOr<std::unique_ptr<HloModule>> ModuleFromProto(const hlo_proto::HloModuleProto& proto);

}  // namespace systolic
