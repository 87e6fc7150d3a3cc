// Literals to and from XLA's LiteralProto: arrays in the repeated field of
// their type (or its bytes field for 16-bit and narrower types), tuples
// element by element.
#pragma once

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/literal.h"

namespace systolic {

hlo_proto::LiteralProto LiteralToProto(const Literal& literal);
// Errors: a bad shape, or a field whose element count does not match it.
absl::StatusOr<Literal> LiteralFromProto(const hlo_proto::LiteralProto& proto);

}  // namespace systolic
