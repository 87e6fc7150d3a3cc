// stablehlo.bitcast_convert. HLO's pred is a byte, but StableHLO's i1 is one
// bit: tensor<64xi1> bitcasts to one i64, element k its bit k. Casts to or
// from i1 are lowered to integer ops on the bits (a dot with the powers of
// two packs them, shifts unpack them); the rest are HLO's bitcast-convert.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/stablehlo/import_context.h"

namespace systolic::stablehlo {

void AddBitcastConvertConverter(absl::flat_hash_map<std::string, OpConverter>* converters);

}  // namespace systolic::stablehlo
