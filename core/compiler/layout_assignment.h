// Chooses the physical layout of every value for the systolic chip:
//  * dot and convolution operands are streamed with the contracting
//    dimension (input features) minor, as the matrix unit reads them; the
//    producer of such an operand writes that layout directly when the dot is
//    its only user, otherwise a copy (a physical transpose) is inserted;
//  * elementwise results follow their operands' common layout, so the vector
//    unit needs no transposes; everything else is row-major;
//  * arrays are tiled in 8x128 blocks (the vector register), narrow types
//    packed;
//  * entry parameters and the result keep the entry computation layout (a
//    copy is inserted only when the result's producer cannot write it);
//    other computations keep row-major parameters and results, so loops and
//    their callers agree.
// The entry computation layout is set from the result when the module had
// none.
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

struct LayoutAssignmentOptions {
  bool tile_layouts = true;
};

class LayoutAssignment : public HloPassInterface {
 public:
  explicit LayoutAssignment(LayoutAssignmentOptions options = {}) : options_(options) {}

  absl::string_view name() const override { return "layout-assignment"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  LayoutAssignmentOptions options_;
};

}  // namespace systolic
