// Common subexpression elimination: two instructions with the same opcode,
// shape, operands and attributes compute the same value; the later one is
// replaced by the earlier. Metadata does not count; side effects, random
// numbers and collectives are never merged.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class HloCSE : public HloPassInterface {
 public:
  absl::string_view name() const override { return "cse"; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace systolic
