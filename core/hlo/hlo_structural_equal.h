// Structural comparison of two modules: same computations, instructions,
// shapes, operand wiring and attributes, whatever the names and ids. Used to
// check that printing and re-parsing a module loses nothing.
#pragma once

#include "absl/status/status.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

// OK when equal; otherwise an error naming the first difference.
absl::Status CompareModulesStructurally(const HloModule& a, const HloModule& b);

}  // namespace systolic
