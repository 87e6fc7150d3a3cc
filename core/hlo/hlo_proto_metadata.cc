#include "core/hlo/hlo_proto_metadata.h"

namespace systolic {

hlo_proto::OpMetadata OpMetadataToProto(const OpMetadata& metadata) {
  hlo_proto::OpMetadata proto;
  proto.set_op_type(metadata.op_type);
  proto.set_op_name(metadata.op_name);
  proto.set_source_file(metadata.source_file);
  proto.set_source_line(int32_t(metadata.source_line));
  proto.set_source_end_line(int32_t(metadata.source_end_line));
  proto.set_source_column(int32_t(metadata.source_column));
  proto.set_source_end_column(int32_t(metadata.source_end_column));
  proto.set_deduplicated_name(metadata.deduplicated_name);
  proto.set_preserve_layout(metadata.preserve_layout);
  proto.set_scheduling_name(metadata.scheduling_name);
  proto.set_stack_frame_id(int32_t(metadata.stack_frame_id));
  return proto;
}

OpMetadata OpMetadataFromProto(const hlo_proto::OpMetadata& proto) {
  OpMetadata metadata;
  metadata.op_type = proto.op_type();
  metadata.op_name = proto.op_name();
  metadata.source_file = proto.source_file();
  metadata.source_line = proto.source_line();
  metadata.source_end_line = proto.source_end_line();
  metadata.source_column = proto.source_column();
  metadata.source_end_column = proto.source_end_column();
  metadata.deduplicated_name = proto.deduplicated_name();
  metadata.preserve_layout = proto.preserve_layout();
  metadata.scheduling_name = proto.scheduling_name();
  metadata.stack_frame_id = proto.stack_frame_id();
  return metadata;
}

hlo_proto::FrontendAttributes FrontendAttributesToProto(const FrontendAttributes& attributes) {
  hlo_proto::FrontendAttributes proto;
  for (const auto& [key, value] : attributes) (*proto.mutable_map())[key] = value;
  return proto;
}

FrontendAttributes FrontendAttributesFromProto(const hlo_proto::FrontendAttributes& proto) {
  return FrontendAttributes(proto.map().begin(), proto.map().end());
}

}  // namespace systolic
