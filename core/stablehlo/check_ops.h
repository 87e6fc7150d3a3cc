// The `check` dialect of StableHLO's interpreter tests (check.expect_eq_const,
// check.expect_almost_eq, check.expect_close and the @check.* custom calls
// JAX-generated tests use): each becomes a probe, the checked values extra
// outputs of the entry computation.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddCheckConverters(absl::flat_hash_map<std::string, OpConverter>* converters);

// `stablehlo.custom_call @check.*(...)`.
absl::StatusOr<std::vector<HloInstruction*>> RecordCheckCustomCall(
    ComputationBuilder& builder, const mlir::Operation& op,
    const std::vector<HloInstruction*>& operands);

}  // namespace systolic::stablehlo
