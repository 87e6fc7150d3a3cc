// Dead code elimination: removes instructions whose values nobody uses (and
// that have no side effect), then computations nothing calls any more.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class HloDCE : public HloPassInterface {
 public:
  absl::string_view name() const override { return "dce"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  // Removes the dead instructions of one computation; true if any.
  static absl::StatusOr<bool> RunOnComputation(HloComputation* computation, int64_t* removed);
};

}  // namespace systolic
