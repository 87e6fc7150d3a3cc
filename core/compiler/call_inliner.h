// Inlines every call: the callee's instructions are copied into the caller
// in place of the call (a callee called twice is copied twice), so later
// passes see one flat computation. Callees left unused are removed.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class CallInliner : public HloPassInterface {
 public:
  absl::string_view name() const override { return "call-inliner"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  // Inlines one call instruction.
  static absl::Status Inline(HloInstruction* call);
};

}  // namespace systolic
