#include "core/hlo/hlo_proto_instruction.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_proto_literal.h"
#include "core/hlo/hlo_proto_metadata.h"
#include "core/hlo/hlo_proto_shape.h"
#include "core/hlo/hlo_proto_sharding.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using hlo_proto::HloInstructionProto;

template <typename Field>
std::vector<int64_t> ToVector(const Field& field) {
  return std::vector<int64_t>(field.begin(), field.end());
}

template <typename Field>
void Append(const std::vector<int64_t>& values, Field* field) {
  for (int64_t v : values) field->Add(v);
}

// XLA lists a while's body before its condition; the IR holds the
// condition first. Every other opcode keeps the IR's order.
bool CallsSwapped(HloOpcode opcode) { return opcode == HloOpcode::kWhile; }

// ---- Attribute groups, to proto -----------------------------------------

hlo_proto::Window WindowToProto(const Window& window) {
  hlo_proto::Window proto;
  for (const WindowDimension& d : window.dimensions) {
    hlo_proto::WindowDimension* p = proto.add_dimensions();
    p->set_size(d.size);
    p->set_stride(d.stride);
    p->set_padding_low(d.padding_low);
    p->set_padding_high(d.padding_high);
    p->set_window_dilation(d.window_dilation);
    p->set_base_dilation(d.base_dilation);
    p->set_window_reversal(d.window_reversal);
  }
  return proto;
}

Window WindowFromProto(const hlo_proto::Window& proto) {
  Window window;
  for (const hlo_proto::WindowDimension& p : proto.dimensions()) {
    WindowDimension d;
    // Zero means "not set" on the wire; the IR's defaults are 1.
    d.size = p.size();
    d.stride = p.stride() == 0 ? 1 : p.stride();
    d.padding_low = p.padding_low();
    d.padding_high = p.padding_high();
    d.window_dilation = p.window_dilation() == 0 ? 1 : p.window_dilation();
    d.base_dilation = p.base_dilation() == 0 ? 1 : p.base_dilation();
    d.window_reversal = p.window_reversal();
    window.dimensions.push_back(d);
  }
  return window;
}

hlo_proto::ConvolutionDimensionNumbers ConvDnumsToProto(const ConvolutionDimensionNumbers& d) {
  hlo_proto::ConvolutionDimensionNumbers p;
  p.set_input_batch_dimension(d.input_batch_dimension);
  p.set_input_feature_dimension(d.input_feature_dimension);
  Append(d.input_spatial_dimensions, p.mutable_input_spatial_dimensions());
  p.set_kernel_input_feature_dimension(d.kernel_input_feature_dimension);
  p.set_kernel_output_feature_dimension(d.kernel_output_feature_dimension);
  Append(d.kernel_spatial_dimensions, p.mutable_kernel_spatial_dimensions());
  p.set_output_batch_dimension(d.output_batch_dimension);
  p.set_output_feature_dimension(d.output_feature_dimension);
  Append(d.output_spatial_dimensions, p.mutable_output_spatial_dimensions());
  return p;
}

ConvolutionDimensionNumbers ConvDnumsFromProto(const hlo_proto::ConvolutionDimensionNumbers& p) {
  ConvolutionDimensionNumbers d;
  d.input_batch_dimension = p.input_batch_dimension();
  d.input_feature_dimension = p.input_feature_dimension();
  d.input_spatial_dimensions = ToVector(p.input_spatial_dimensions());
  d.kernel_input_feature_dimension = p.kernel_input_feature_dimension();
  d.kernel_output_feature_dimension = p.kernel_output_feature_dimension();
  d.kernel_spatial_dimensions = ToVector(p.kernel_spatial_dimensions());
  d.output_batch_dimension = p.output_batch_dimension();
  d.output_feature_dimension = p.output_feature_dimension();
  d.output_spatial_dimensions = ToVector(p.output_spatial_dimensions());
  return d;
}

hlo_proto::DotDimensionNumbers DotDnumsToProto(const DotDimensionNumbers& d) {
  hlo_proto::DotDimensionNumbers p;
  Append(d.lhs_contracting_dimensions, p.mutable_lhs_contracting_dimensions());
  Append(d.rhs_contracting_dimensions, p.mutable_rhs_contracting_dimensions());
  Append(d.lhs_batch_dimensions, p.mutable_lhs_batch_dimensions());
  Append(d.rhs_batch_dimensions, p.mutable_rhs_batch_dimensions());
  return p;
}

DotDimensionNumbers DotDnumsFromProto(const hlo_proto::DotDimensionNumbers& p) {
  DotDimensionNumbers d;
  d.lhs_contracting_dimensions = ToVector(p.lhs_contracting_dimensions());
  d.rhs_contracting_dimensions = ToVector(p.rhs_contracting_dimensions());
  d.lhs_batch_dimensions = ToVector(p.lhs_batch_dimensions());
  d.rhs_batch_dimensions = ToVector(p.rhs_batch_dimensions());
  return d;
}

hlo_proto::GatherDimensionNumbers GatherDnumsToProto(const GatherDimensionNumbers& d) {
  hlo_proto::GatherDimensionNumbers p;
  Append(d.offset_dims, p.mutable_offset_dims());
  Append(d.collapsed_slice_dims, p.mutable_collapsed_slice_dims());
  Append(d.start_index_map, p.mutable_start_index_map());
  p.set_index_vector_dim(d.index_vector_dim);
  Append(d.operand_batching_dims, p.mutable_operand_batching_dims());
  Append(d.start_indices_batching_dims, p.mutable_start_indices_batching_dims());
  return p;
}

GatherDimensionNumbers GatherDnumsFromProto(const hlo_proto::GatherDimensionNumbers& p) {
  GatherDimensionNumbers d;
  d.offset_dims = ToVector(p.offset_dims());
  d.collapsed_slice_dims = ToVector(p.collapsed_slice_dims());
  d.start_index_map = ToVector(p.start_index_map());
  d.index_vector_dim = p.index_vector_dim();
  d.operand_batching_dims = ToVector(p.operand_batching_dims());
  d.start_indices_batching_dims = ToVector(p.start_indices_batching_dims());
  return d;
}

hlo_proto::ScatterDimensionNumbers ScatterDnumsToProto(const ScatterDimensionNumbers& d) {
  hlo_proto::ScatterDimensionNumbers p;
  Append(d.update_window_dims, p.mutable_update_window_dims());
  Append(d.inserted_window_dims, p.mutable_inserted_window_dims());
  Append(d.scatter_dims_to_operand_dims, p.mutable_scatter_dims_to_operand_dims());
  p.set_index_vector_dim(d.index_vector_dim);
  Append(d.input_batching_dims, p.mutable_input_batching_dims());
  Append(d.scatter_indices_batching_dims, p.mutable_scatter_indices_batching_dims());
  return p;
}

ScatterDimensionNumbers ScatterDnumsFromProto(const hlo_proto::ScatterDimensionNumbers& p) {
  ScatterDimensionNumbers d;
  d.update_window_dims = ToVector(p.update_window_dims());
  d.inserted_window_dims = ToVector(p.inserted_window_dims());
  d.scatter_dims_to_operand_dims = ToVector(p.scatter_dims_to_operand_dims());
  d.index_vector_dim = p.index_vector_dim();
  d.input_batching_dims = ToVector(p.input_batching_dims());
  d.scatter_indices_batching_dims = ToVector(p.scatter_indices_batching_dims());
  return d;
}

// "dot_bf16_bf16_f32_x3" <-> ALG_DOT_BF16_BF16_F32_X3.
absl::StatusOr<hlo_proto::PrecisionConfig> PrecisionToProto(const PrecisionConfig& config) {
  hlo_proto::PrecisionConfig p;
  for (Precision precision : config.operand_precision) {
    p.add_operand_precision(hlo_proto::PrecisionConfig::Precision(int(precision)));
  }
  if (!config.algorithm.empty()) {
    hlo_proto::PrecisionConfig::Algorithm algorithm;
    if (!hlo_proto::PrecisionConfig::Algorithm_Parse(
            absl::StrCat("ALG_", absl::AsciiStrToUpper(config.algorithm)), &algorithm)) {
      return absl::InvalidArgumentError(
          absl::StrCat("algorithm=", config.algorithm, " has no number in XLA's PrecisionConfig"));
    }
    p.set_algorithm(algorithm);
  }
  return p;
}

PrecisionConfig PrecisionFromProto(const hlo_proto::PrecisionConfig& p) {
  PrecisionConfig config;
  for (int precision : p.operand_precision()) config.operand_precision.push_back(Precision(precision));
  if (p.algorithm() != hlo_proto::PrecisionConfig::ALG_UNSET) {
    config.algorithm =
        absl::AsciiStrToLower(hlo_proto::PrecisionConfig::Algorithm_Name(p.algorithm()).substr(4));
  }
  return config;
}

void DeviceListToProto(const CollectiveDeviceList& list, HloInstructionProto* proto) {
  if (list.is_iota()) {
    // The list keeps its iota form only as its text ("[2,2]<=[4]"), which
    // is a tile assignment's: the sharding parser reads it back.
    absl::StatusOr<HloSharding> tiles = ParseSharding(absl::StrCat("{devices=", list.ToString(), "}"));
    if (tiles.ok() && tiles->IsTiled() && tiles->tile_assignment().is_iota()) {
      const TileAssignment& iota = tiles->tile_assignment();
      hlo_proto::IotaReplicaGroupListProto* p =
          proto->mutable_collective_device_list()->mutable_iota_replica_group_list();
      const std::vector<int64_t>& dims = iota.dimensions();
      p->set_num_replica_groups(dims.empty() ? 0 : dims[0]);
      p->set_num_devices_per_group(dims.size() > 1 ? dims[1] : 1);
      Append(iota.iota_reshape_dimensions(), p->mutable_iota_reshape_dims());
      for (int64_t perm : iota.iota_transpose_perm()) p->add_iota_transpose_perm(int32_t(perm));
      return;
    }
  }
  // The plain field every version of XLA reads.
  for (const std::vector<int64_t>& group : list.replica_groups()) {
    Append(group, proto->add_replica_groups()->mutable_replica_ids());
  }
}

absl::StatusOr<CollectiveDeviceList> DeviceListFromProto(const HloInstructionProto& proto) {
  std::vector<std::vector<int64_t>> groups;
  if (proto.has_collective_device_list()) {
    const hlo_proto::CollectiveDeviceListProto& list = proto.collective_device_list();
    if (list.has_iota_replica_group_list()) {
      const hlo_proto::IotaReplicaGroupListProto& iota = list.iota_replica_group_list();
      SYSTOLIC_ASSIGN_OR_RETURN(
          TileAssignment tiles,
          TileAssignment::Iota({iota.num_replica_groups(), iota.num_devices_per_group()},
                               ToVector(iota.iota_reshape_dims()),
                               ToVector(iota.iota_transpose_perm())));
      return CollectiveDeviceList(std::move(tiles));
    }
    for (const hlo_proto::ReplicaGroup& group : list.replica_groups()) {
      groups.push_back(ToVector(group.replica_ids()));
    }
    return CollectiveDeviceList(std::move(groups));
  }
  for (const hlo_proto::ReplicaGroup& group : proto.replica_groups()) {
    groups.push_back(ToVector(group.replica_ids()));
  }
  return CollectiveDeviceList(std::move(groups));
}

void CustomCallToProto(const HloInstruction& instr, HloInstructionProto* proto) {
  const CustomCallOptions& cc = instr.custom_call();
  proto->set_custom_call_target(cc.target);
  proto->set_custom_call_has_side_effect(cc.has_side_effect);
  hlo_proto::CustomCallApiVersion version;
  if (!cc.api_version.empty() && hlo_proto::CustomCallApiVersion_Parse(cc.api_version, &version)) {
    proto->set_custom_call_api_version(version);
  }
  hlo_proto::CustomCallSchedule schedule;
  if (!cc.schedule.empty() && hlo_proto::CustomCallSchedule_Parse(cc.schedule, &schedule)) {
    proto->set_custom_call_schedule(schedule);
  }
  if (cc.has_layout_constraints) {
    proto->set_constrain_layout(true);
    for (const Shape& shape : cc.operand_layout_constraints) {
      *proto->add_operand_shapes_with_layout() = ShapeToProto(shape);
    }
  }
}

absl::Status CustomCallFromProto(const HloInstructionProto& proto, HloInstruction* instr) {
  CustomCallOptions* cc = instr->mutable_custom_call();
  cc->target = proto.custom_call_target();
  cc->has_side_effect = proto.custom_call_has_side_effect();
  if (proto.custom_call_api_version() != hlo_proto::API_VERSION_UNSPECIFIED &&
      proto.custom_call_api_version() != hlo_proto::API_VERSION_ORIGINAL) {
    cc->api_version = hlo_proto::CustomCallApiVersion_Name(proto.custom_call_api_version());
  }
  if (proto.custom_call_schedule() != hlo_proto::SCHEDULE_NONE) {
    cc->schedule = hlo_proto::CustomCallSchedule_Name(proto.custom_call_schedule());
  }
  if (proto.constrain_layout()) {
    cc->has_layout_constraints = true;
    for (const hlo_proto::ShapeProto& shape : proto.operand_shapes_with_layout()) {
      SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ShapeFromProto(shape));
      cc->operand_layout_constraints.push_back(std::move(s));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<HloInstructionProto> InstructionToProto(const HloInstruction& instr,
                                                       const HloProtoIds& ids) {
  HloInstructionProto proto;
  const HloOpcode opcode = instr.opcode();
  proto.set_name(instr.name());
  proto.set_opcode(std::string(HloOpcodeString(opcode)));
  *proto.mutable_shape() = ShapeToProto(instr.shape());
  proto.set_id(ids.instructions.at(&instr));
  for (const HloInstruction* operand : instr.operands()) {
    proto.add_operand_ids(ids.instructions.at(operand));
  }
  for (const HloInstruction* predecessor : instr.control_predecessors()) {
    proto.add_control_predecessor_ids(ids.instructions.at(predecessor));
  }
  std::vector<HloComputation*> called = instr.called_computations();
  if (CallsSwapped(opcode) && called.size() == 2) std::swap(called[0], called[1]);
  for (const HloComputation* computation : called) {
    proto.add_called_computation_ids(ids.computations.at(computation));
  }

  if (!instr.metadata().empty()) *proto.mutable_metadata() = OpMetadataToProto(instr.metadata());
  if (!instr.frontend_attributes().empty()) {
    *proto.mutable_frontend_attributes() = FrontendAttributesToProto(instr.frontend_attributes());
  }
  if (instr.has_sharding()) *proto.mutable_sharding() = ShardingToProto(instr.sharding());
  proto.set_backend_config(instr.backend_config());
  if (instr.has_literal()) *proto.mutable_literal() = LiteralToProto(instr.literal());

  switch (opcode) {
    case HloOpcode::kParameter:
      proto.set_parameter_number(instr.parameter_number());
      break;
    case HloOpcode::kGetTupleElement:
      proto.set_tuple_index(instr.tuple_index());
      break;
    case HloOpcode::kCompare:
      proto.set_comparison_direction(
          std::string(ComparisonDirectionToString(instr.comparison_direction())));
      if (instr.explicit_comparison_type()) {
        proto.set_comparison_type(std::string(ComparisonTypeToString(*instr.explicit_comparison_type())));
      }
      break;
    case HloOpcode::kFusion:
      proto.set_fusion_kind(std::string(FusionKindToString(instr.fusion_kind())));
      break;
    case HloOpcode::kRng:
      proto.set_distribution(hlo_proto::RandomDistribution(int(instr.random_distribution()) + 1));
      break;
    case HloOpcode::kRngBitGenerator:
      proto.set_rng_algorithm(hlo_proto::RandomAlgorithm(int(instr.random_algorithm())));
      break;
    case HloOpcode::kRngGetAndUpdateState:
      proto.set_delta(instr.delta());
      break;
    case HloOpcode::kReducePrecision:
      proto.set_exponent_bits(int32_t(instr.exponent_bits()));
      proto.set_mantissa_bits(int32_t(instr.mantissa_bits()));
      break;
    case HloOpcode::kFft:
      proto.set_fft_type(hlo_proto::FftType(int(instr.fft_type())));
      Append(instr.fft_length(), proto.mutable_fft_length());
      break;
    case HloOpcode::kTriangularSolve: {
      hlo_proto::TriangularSolveOptions* options = proto.mutable_triangular_solve_options();
      options->set_left_side(instr.left_side());
      options->set_lower(instr.lower());
      options->set_unit_diagonal(instr.unit_diagonal());
      options->set_transpose_a(
          hlo_proto::TriangularSolveOptions::Transpose(int(instr.transpose_a()) + 1));
      break;
    }
    case HloOpcode::kCholesky:
      proto.mutable_cholesky_options()->set_lower(instr.lower());
      break;
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
      proto.set_epsilon(instr.epsilon());
      proto.set_feature_index(instr.feature_index());
      break;
    case HloOpcode::kSort:
      proto.set_is_stable(instr.is_stable());
      break;
    case HloOpcode::kTopK:
      proto.set_k(instr.k());
      proto.set_largest(instr.largest());
      break;
    case HloOpcode::kCustomCall:
      CustomCallToProto(instr, &proto);
      break;
    case HloOpcode::kInfeed:
      proto.set_infeed_config(instr.infeed_config());
      break;
    case HloOpcode::kOutfeed:
      proto.set_outfeed_config(instr.infeed_config());
      if (instr.has_outfeed_shape()) *proto.mutable_outfeed_shape() = ShapeToProto(instr.outfeed_shape());
      break;
    default:
      break;
  }
  // The IR keeps one constrain_layout for collectives; a custom call's
  // layout constraints went with its options above.
  if (opcode != HloOpcode::kCustomCall && instr.constrain_layout()) proto.set_constrain_layout(true);

  Append(instr.dimensions(), proto.mutable_dimensions());
  for (size_t i = 0; i < instr.slice_starts().size(); ++i) {
    HloInstructionProto::SliceDimensions* slice = proto.add_slice_dimensions();
    slice->set_start(instr.slice_starts()[i]);
    slice->set_limit(instr.slice_limits()[i]);
    slice->set_stride(instr.slice_strides()[i]);
  }
  Append(instr.slice_sizes(), opcode == HloOpcode::kGather ? proto.mutable_gather_slice_sizes()
                                                           : proto.mutable_dynamic_slice_sizes());
  if (!instr.padding_config().dimensions.empty()) {
    for (const PaddingDimension& d : instr.padding_config().dimensions) {
      hlo_proto::PaddingConfig::PaddingConfigDimension* p =
          proto.mutable_padding_config()->add_dimensions();
      p->set_edge_padding_low(d.edge_padding_low);
      p->set_edge_padding_high(d.edge_padding_high);
      p->set_interior_padding(d.interior_padding);
    }
  }
  if (instr.has_window()) *proto.mutable_window() = WindowToProto(instr.window());
  if (instr.has_convolution_dimension_numbers()) {
    *proto.mutable_convolution_dimension_numbers() =
        ConvDnumsToProto(instr.convolution_dimension_numbers());
  }
  if (instr.feature_group_count() != 1) proto.set_feature_group_count(instr.feature_group_count());
  if (instr.batch_group_count() != 1) proto.set_batch_group_count(instr.batch_group_count());
  if (instr.dot_dimension_numbers() != DotDimensionNumbers()) {
    *proto.mutable_dot_dimension_numbers() = DotDnumsToProto(instr.dot_dimension_numbers());
  }
  if (instr.precision_config() != PrecisionConfig()) {
    SYSTOLIC_ASSIGN_OR_RETURN(*proto.mutable_precision_config(),
                              PrecisionToProto(instr.precision_config()));
  }
  if (instr.gather_dimension_numbers() != GatherDimensionNumbers()) {
    *proto.mutable_gather_dimension_numbers() = GatherDnumsToProto(instr.gather_dimension_numbers());
  }
  if (instr.scatter_dimension_numbers() != ScatterDimensionNumbers()) {
    *proto.mutable_scatter_dimension_numbers() =
        ScatterDnumsToProto(instr.scatter_dimension_numbers());
  }
  proto.set_indices_are_sorted(instr.indices_are_sorted());
  proto.set_unique_indices(instr.unique_indices());
  for (const auto& [output_index, operand] : instr.custom_call().output_to_operand_aliasing) {
    hlo_proto::OutputOperandAliasing* alias = proto.add_output_operand_aliasing();
    Append(output_index, alias->mutable_output_shape_index());
    alias->set_operand_index(operand.first);
    Append(operand.second, alias->mutable_operand_shape_index());
  }
  if (instr.channel_id()) proto.set_channel_id(*instr.channel_id());
  DeviceListToProto(instr.device_list(), &proto);
  proto.set_use_global_device_ids(instr.use_global_device_ids());
  for (const auto& [source, target] : instr.source_target_pairs()) {
    hlo_proto::SourceTarget* pair = proto.add_source_target_pairs();
    pair->set_source(source);
    pair->set_target(target);
  }
  proto.set_is_host_transfer(instr.is_host_transfer());
  if (!instr.parameter_replication().empty()) {
    for (bool replicated : instr.parameter_replication()) {
      proto.mutable_parameter_replication()->add_replicated_at_leaf_buffers(replicated);
    }
  }
  proto.set_async_execution_thread(instr.async_execution_thread());
  if (instr.cross_program_prefetch_index()) {
    proto.set_cross_program_prefetch_index(int32_t(*instr.cross_program_prefetch_index()));
  }
  if (instr.async_group_id()) proto.set_systolic_async_group_id(*instr.async_group_id());
  proto.set_systolic_domain(instr.domain_text());
  for (const auto& [name, value] : instr.raw_attributes()) {
    hlo_proto::RawAttribute* raw = proto.add_systolic_raw_attributes();
    raw->set_name(name);
    raw->set_value(value);
  }
  return proto;
}

absl::StatusOr<std::unique_ptr<HloInstruction>> InstructionFromProto(
    const HloInstructionProto& proto, absl::Span<HloInstruction* const> operands,
    absl::Span<HloComputation* const> called) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("instruction %", proto.name(), ": ", what));
  };
  std::optional<HloOpcode> opcode = StringToHloOpcode(proto.opcode());
  if (!opcode) return fail(absl::StrCat("unknown opcode '", proto.opcode(), "'"));
  absl::StatusOr<Shape> shape = ShapeFromProto(proto.shape());
  if (!shape.ok()) return fail(shape.status().message());

  std::unique_ptr<HloInstruction> owned =
      *opcode == HloOpcode::kParameter
          ? HloInstruction::CreateParameter(proto.parameter_number(), *shape, proto.name())
          : HloInstruction::Create(*opcode, *shape, operands);
  HloInstruction* instr = owned.get();
  instr->SetName(proto.name());
  std::vector<HloComputation*> calls(called.begin(), called.end());
  if (CallsSwapped(*opcode) && calls.size() == 2) std::swap(calls[0], calls[1]);
  for (HloComputation* computation : calls) {
    if (*opcode == HloOpcode::kFusion) {
      if (computation->IsFusionComputation()) {
        return fail(absl::StrCat("computation %", computation->name(),
                                 " is already the body of fusion %",
                                 computation->FusionInstruction()->name()));
      }
      computation->SetFusionInstruction(instr);
    }
    instr->AppendCalledComputation(computation);
  }

  if (proto.has_metadata()) instr->set_metadata(OpMetadataFromProto(proto.metadata()));
  *instr->mutable_frontend_attributes() = FrontendAttributesFromProto(proto.frontend_attributes());
  if (proto.has_sharding()) {
    absl::StatusOr<HloSharding> sharding = ShardingFromProto(proto.sharding());
    if (!sharding.ok()) return fail(sharding.status().message());
    instr->set_sharding(*std::move(sharding));
  }
  instr->set_backend_config(proto.backend_config());
  if (proto.has_literal()) {
    absl::StatusOr<Literal> literal = LiteralFromProto(proto.literal());
    if (!literal.ok()) return fail(literal.status().message());
    instr->set_literal(*std::move(literal));
  } else if (*opcode == HloOpcode::kConstant) {
    return fail("a constant without a literal");
  }

  switch (*opcode) {
    case HloOpcode::kGetTupleElement:
      instr->set_tuple_index(proto.tuple_index());
      break;
    case HloOpcode::kCompare: {
      std::optional<ComparisonDirection> direction =
          StringToComparisonDirection(proto.comparison_direction());
      if (!direction) {
        return fail(absl::StrCat("unknown comparison direction '", proto.comparison_direction(), "'"));
      }
      instr->set_comparison_direction(*direction);
      if (!proto.comparison_type().empty()) {
        std::optional<ComparisonType> type = StringToComparisonType(proto.comparison_type());
        if (!type) return fail(absl::StrCat("unknown comparison type '", proto.comparison_type(), "'"));
        // As the text parser does: a type equal to the default says nothing.
        if (operands.empty() || *type != DefaultComparisonType(operands[0]->shape().element_type())) {
          instr->set_comparison_type(*type);
        }
      }
      break;
    }
    case HloOpcode::kFusion: {
      std::optional<FusionKind> kind = StringToFusionKind(proto.fusion_kind());
      if (!kind) return fail(absl::StrCat("unknown fusion kind '", proto.fusion_kind(), "'"));
      instr->set_fusion_kind(*kind);
      break;
    }
    case HloOpcode::kRng:
      if (proto.distribution() != hlo_proto::RNG_UNIFORM && proto.distribution() != hlo_proto::RNG_NORMAL) {
        return fail("rng without a distribution");
      }
      instr->set_random_distribution(RandomDistribution(int(proto.distribution()) - 1));
      break;
    case HloOpcode::kRngBitGenerator:
      instr->set_random_algorithm(RandomAlgorithm(int(proto.rng_algorithm())));
      break;
    case HloOpcode::kRngGetAndUpdateState:
      instr->set_delta(proto.delta());
      break;
    case HloOpcode::kReducePrecision:
      instr->set_reduce_precision(proto.exponent_bits(), proto.mantissa_bits());
      break;
    case HloOpcode::kFft:
      instr->set_fft_type(FftType(int(proto.fft_type())));
      instr->set_fft_length(ToVector(proto.fft_length()));
      break;
    case HloOpcode::kTriangularSolve: {
      const hlo_proto::TriangularSolveOptions& options = proto.triangular_solve_options();
      instr->set_left_side(options.left_side());
      instr->set_lower(options.lower());
      instr->set_unit_diagonal(options.unit_diagonal());
      // TRANSPOSE_INVALID (unset) reads as no transpose.
      instr->set_transpose_a(TriangularSolveTranspose(std::max(0, int(options.transpose_a()) - 1)));
      break;
    }
    case HloOpcode::kCholesky:
      instr->set_lower(proto.cholesky_options().lower());
      break;
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
      instr->set_epsilon(proto.epsilon());
      instr->set_feature_index(proto.feature_index());
      break;
    case HloOpcode::kSort:
      instr->set_is_stable(proto.is_stable());
      break;
    case HloOpcode::kTopK:
      instr->set_k(proto.k());
      instr->set_largest(proto.largest());
      break;
    case HloOpcode::kCustomCall:
      if (absl::Status status = CustomCallFromProto(proto, instr); !status.ok()) {
        return fail(status.message());
      }
      break;
    case HloOpcode::kInfeed:
      instr->set_feed_config(proto.infeed_config());
      break;
    case HloOpcode::kOutfeed:
      instr->set_feed_config(proto.outfeed_config());
      if (proto.has_outfeed_shape()) {
        absl::StatusOr<Shape> outfeed = ShapeFromProto(proto.outfeed_shape());
        if (!outfeed.ok()) return fail(outfeed.status().message());
        instr->set_outfeed_shape(*std::move(outfeed));
      }
      break;
    default:
      break;
  }
  if (*opcode != HloOpcode::kCustomCall && proto.constrain_layout()) instr->set_constrain_layout(true);

  if (proto.dimensions_size() > 0) instr->set_dimensions(ToVector(proto.dimensions()));
  if (proto.slice_dimensions_size() > 0) {
    std::vector<int64_t> starts, limits, strides;
    for (const HloInstructionProto::SliceDimensions& slice : proto.slice_dimensions()) {
      starts.push_back(slice.start());
      limits.push_back(slice.limit());
      strides.push_back(slice.stride());
    }
    instr->set_slice(std::move(starts), std::move(limits), std::move(strides));
  }
  if (proto.gather_slice_sizes_size() > 0) {
    instr->set_slice_sizes(ToVector(proto.gather_slice_sizes()));
  } else if (proto.dynamic_slice_sizes_size() > 0) {
    instr->set_slice_sizes(ToVector(proto.dynamic_slice_sizes()));
  }
  if (proto.has_padding_config()) {
    PaddingConfig config;
    for (const auto& p : proto.padding_config().dimensions()) {
      config.dimensions.push_back({p.edge_padding_low(), p.edge_padding_high(), p.interior_padding()});
    }
    instr->set_padding_config(std::move(config));
  }
  if (proto.has_window()) instr->set_window(WindowFromProto(proto.window()));
  if (proto.has_convolution_dimension_numbers()) {
    instr->set_convolution_dimension_numbers(ConvDnumsFromProto(proto.convolution_dimension_numbers()));
  }
  if (proto.feature_group_count() > 0) instr->set_feature_group_count(proto.feature_group_count());
  if (proto.batch_group_count() > 0) instr->set_batch_group_count(proto.batch_group_count());
  if (proto.has_dot_dimension_numbers()) {
    instr->set_dot_dimension_numbers(DotDnumsFromProto(proto.dot_dimension_numbers()));
  }
  if (proto.has_precision_config()) {
    *instr->mutable_precision_config() = PrecisionFromProto(proto.precision_config());
  }
  if (proto.has_gather_dimension_numbers()) {
    instr->set_gather_dimension_numbers(GatherDnumsFromProto(proto.gather_dimension_numbers()));
  }
  if (proto.has_scatter_dimension_numbers()) {
    instr->set_scatter_dimension_numbers(ScatterDnumsFromProto(proto.scatter_dimension_numbers()));
  }
  if (proto.indices_are_sorted()) instr->set_indices_are_sorted(true);
  if (proto.unique_indices()) instr->set_unique_indices(true);
  for (const hlo_proto::OutputOperandAliasing& alias : proto.output_operand_aliasing()) {
    instr->mutable_custom_call()->output_to_operand_aliasing.push_back(
        {ToVector(alias.output_shape_index()),
         {alias.operand_index(), ToVector(alias.operand_shape_index())}});
  }
  if (proto.channel_id() > 0) {
    instr->set_channel_id(proto.channel_id());
  } else if (proto.all_reduce_id() > 0) {
    instr->set_channel_id(proto.all_reduce_id());
  }
  if (proto.has_collective_device_list() || proto.replica_groups_size() > 0) {
    absl::StatusOr<CollectiveDeviceList> list = DeviceListFromProto(proto);
    if (!list.ok()) return fail(list.status().message());
    instr->set_device_list(*std::move(list));
  }
  if (proto.use_global_device_ids()) instr->set_use_global_device_ids(true);
  if (proto.source_target_pairs_size() > 0) {
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (const hlo_proto::SourceTarget& pair : proto.source_target_pairs()) {
      pairs.emplace_back(pair.source(), pair.target());
    }
    instr->set_source_target_pairs(std::move(pairs));
  }
  if (proto.is_host_transfer()) instr->set_is_host_transfer(true);
  if (proto.has_parameter_replication()) {
    const auto& leaves = proto.parameter_replication().replicated_at_leaf_buffers();
    instr->set_parameter_replication(std::vector<bool>(leaves.begin(), leaves.end()));
  }
  if (!proto.async_execution_thread().empty()) {
    instr->set_async_execution_thread(proto.async_execution_thread());
  }
  if (proto.has_cross_program_prefetch_index()) {
    instr->set_cross_program_prefetch_index(proto.cross_program_prefetch_index());
  }
  if (proto.has_systolic_async_group_id()) instr->set_async_group_id(proto.systolic_async_group_id());
  if (!proto.systolic_domain().empty()) instr->set_domain_text(proto.systolic_domain());
  for (const hlo_proto::RawAttribute& raw : proto.systolic_raw_attributes()) {
    instr->add_raw_attribute(raw.name(), raw.value());
  }
  return owned;
}

}  // namespace systolic
