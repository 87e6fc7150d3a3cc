// CHLO's special functions decomposed into elementwise HLO the way XLA's
// CHLO lowering computes them: lgamma and digamma by the Lanczos
// approximation (g = 7, 9 terms) with reflection for x < 0.5, erf_inv by
// Giles' single-precision polynomials (refined by Newton steps on erf in
// f64), next_after on the bits of the float.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddChloSpecialFunctions(absl::flat_hash_map<std::string, OpConverter>* converters);

}  // namespace systolic::stablehlo
