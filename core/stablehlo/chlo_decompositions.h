// The `chlo` ops JAX exports commonly emit, decomposed into HLO: implicitly
// broadcasting binary ops, erf, tan, top_k, the hyperbolic and inverse
// trigonometric functions, is_inf, square, conj, constant_like, mulhi; and the
// special functions of chlo_special_functions.h.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/chlo_emitter.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddChloConverters(absl::flat_hash_map<std::string, OpConverter>* converters);

// x * x; for complex x = a + ib, (a - b)(a + b) + i 2ab, whose real part is
// exactly 0 when |a| = |b| is finite (where a^2 - b^2 would be inf - inf).
// chlo.square and stablehlo.square both use it.
HloInstruction* EmitSquare(ChloEmitter& e, HloInstruction* x);

}  // namespace systolic::stablehlo
