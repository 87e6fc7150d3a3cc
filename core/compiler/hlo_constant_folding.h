// Constant folding through the reference evaluator: an instruction whose
// operands are all known values (constants, broadcasts and iotas of them,
// results folded before) becomes a constant with the evaluator's result,
// so folding never disagrees with execution. Broadcasts and iotas are not
// materialized on their own (they would only make big constants), results
// larger than the size limit stay computed, and nothing with a side effect,
// randomness or a loop is run.
#pragma once

#include <cstdint>

#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

struct HloConstantFoldingOptions {
  // Results bigger than this are left to the program.
  int64_t max_result_bytes = 64 << 10;
};

class HloConstantFolding : public HloPassInterface {
 public:
  explicit HloConstantFolding(HloConstantFoldingOptions options = {}) : options_(options) {}

  absl::string_view name() const override { return "constant-folding"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

 private:
  HloConstantFoldingOptions options_;
};

}  // namespace systolic
