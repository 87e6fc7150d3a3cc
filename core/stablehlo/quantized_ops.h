// Ops on uniform quantized tensors, as the StableHLO spec defines them:
// uniform_quantize and uniform_dequantize, and every other op on quantized
// values computed in the expressed float type — its quantized operands
// dequantized, the op applied, its quantized results quantized again
// (rounding half to even, clamped to the storage range). Quantized values
// are their storage integers in HLO.
#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddQuantizedConverters(absl::flat_hash_map<std::string, OpConverter>* converters);

// Whether `op` reads or makes a quantized value and its converter does not
// handle them itself: ConvertBlock then converts it through the expressed
// type with ConvertThroughExpressedType.
bool NeedsExpressedType(const ComputationBuilder& b, const mlir::Operation& op, const Operands& operands);

Results ConvertThroughExpressedType(ComputationBuilder& b, const mlir::Operation& op,
                                    const Operands& operands, const Shapes& shapes,
                                    const OpConverter& converter);

}  // namespace systolic::stablehlo
