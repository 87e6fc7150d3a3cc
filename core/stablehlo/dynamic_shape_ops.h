// StableHLO's dynamic-shape ops whose result size is known when the program
// is imported: the result type is fully static, or the shape operand is a
// constant. They become their static HLO forms (reshape, broadcast, iota);
// a size known only at run time is an error at the op.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddDynamicShapeConverters(absl::flat_hash_map<std::string, OpConverter>* converters);

// Whether the op's converter works out sizes its result types leave as `?`.
bool ResolvesUnboundedResults(absl::string_view op_name);

}  // namespace systolic::stablehlo
