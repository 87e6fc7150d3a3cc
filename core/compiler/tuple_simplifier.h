// Removes tuples that are built only to be taken apart again:
//   get-tuple-element(tuple(a, b), 1)            => b
//   tuple(gte(t, 0), gte(t, 1), ..., gte(t, n-1)) => t   (same shape)
#pragma once

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

class TupleSimplifier : public HloPassInterface {
 public:
  absl::string_view name() const override { return "tuple-simplifier"; }
  absl::StatusOr<bool> Run(HloModule* module) override;
};

}  // namespace systolic
