// Instruction metadata and frontend attributes to and from XLA's
// OpMetadata / FrontendAttributes.
#pragma once

#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/op_metadata.h"

namespace systolic {

hlo_proto::OpMetadata OpMetadataToProto(const OpMetadata& metadata);
OpMetadata OpMetadataFromProto(const hlo_proto::OpMetadata& proto);

hlo_proto::FrontendAttributes FrontendAttributesToProto(const FrontendAttributes& attributes);
FrontendAttributes FrontendAttributesFromProto(const hlo_proto::FrontendAttributes& proto);

}  // namespace systolic
