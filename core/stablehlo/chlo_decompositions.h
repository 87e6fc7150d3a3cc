// The `chlo` ops JAX exports commonly emit, decomposed into HLO: implicitly
// broadcasting binary ops, erf, tan, top_k, the hyperbolic and inverse
// trigonometric functions, is_inf, square, conj, constant_like.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddChloConverters(absl::flat_hash_map<std::string, OpConverter>* converters);

}  // namespace systolic::stablehlo
