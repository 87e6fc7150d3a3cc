// HLO text output in XLA's format for instructions, computations and modules.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_print_options.h"
#include "core/hlo/literal_text.h"

namespace systolic {
namespace {

std::string Ref(const HloComputation* c) { return absl::StrCat("%", c->name()); }

std::string Bool(bool b) { return b ? "true" : "false"; }

std::string SliceToString(const HloInstruction& instr) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < instr.slice_starts().size(); ++i) {
    int64_t stride = i < instr.slice_strides().size() ? instr.slice_strides()[i] : 1;
    if (stride != 1) {
      parts.push_back(absl::StrCat("[", instr.slice_starts()[i], ":", instr.slice_limits()[i], ":",
                                   stride, "]"));
    } else {
      parts.push_back(absl::StrCat("[", instr.slice_starts()[i], ":", instr.slice_limits()[i], "]"));
    }
  }
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

std::string PairsToString(const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  std::vector<std::string> parts;
  for (const auto& [s, t] : pairs) parts.push_back(absl::StrCat("{", s, ",", t, "}"));
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

std::string PrecisionToText(const PrecisionConfig& p) {
  std::vector<std::string> parts;
  for (Precision x : p.operand_precision) parts.emplace_back(PrecisionToString(x));
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

bool AllDefaultPrecision(const PrecisionConfig& p) {
  for (Precision x : p.operand_precision) {
    if (x != Precision::kDefault) return false;
  }
  return true;
}

// Attributes that belong to the opcode, in XLA's order, each appended to
// `out` as ", key=value".
void AppendOpcodeAttributes(const HloInstruction& instr, std::string* out) {
  auto add = [&](absl::string_view key, absl::string_view value) {
    absl::StrAppend(out, ", ", key, "=", value);
  };
  // Dimension numbers print their own keys.
  auto add_unkeyed = [&](absl::string_view text) { absl::StrAppend(out, ", ", text); };
  auto add_window = [&] {
    if (instr.has_window() && !instr.window().dimensions.empty()) {
      add("window", absl::StrCat("{", instr.window().ToString(), "}"));
    }
  };
  auto add_conv = [&] {
    add_window();
    if (instr.has_convolution_dimension_numbers()) {
      add("dim_labels", instr.convolution_dimension_numbers().ToDimLabels());
    }
    if (instr.feature_group_count() != 1) {
      add("feature_group_count", absl::StrCat(instr.feature_group_count()));
    }
    if (instr.batch_group_count() != 1) {
      add("batch_group_count", absl::StrCat(instr.batch_group_count()));
    }
  };
  auto add_precision = [&] {
    if (!AllDefaultPrecision(instr.precision_config())) {
      add("operand_precision", PrecisionToText(instr.precision_config()));
    }
    if (!instr.precision_config().algorithm.empty()) {
      add("algorithm", instr.precision_config().algorithm);
    }
  };
  auto add_collective = [&] {
    if (instr.channel_id()) add("channel_id", absl::StrCat(*instr.channel_id()));
    if (!instr.device_list().empty() || instr.device_list().is_iota()) {
      add("replica_groups", instr.device_list().ToString());
    } else if (instr.opcode() != HloOpcode::kCollectivePermute &&
               instr.opcode() != HloOpcode::kCollectivePermuteStart) {
      add("replica_groups", "{}");
    }
    if (instr.constrain_layout()) add("constrain_layout", "true");
  };
  auto add_to_apply = [&] {
    if (instr.to_apply()) add("to_apply", Ref(instr.to_apply()));
  };
  auto add_dimensions = [&] { add("dimensions", BracedList(instr.dimensions())); };

  switch (instr.opcode()) {
    case HloOpcode::kParameter:
      if (!instr.parameter_replication().empty()) {
        std::vector<std::string> parts;
        for (bool b : instr.parameter_replication()) parts.push_back(Bool(b));
        add("parameter_replication", absl::StrCat("{", absl::StrJoin(parts, ","), "}"));
      }
      break;
    case HloOpcode::kGetTupleElement:
      add("index", absl::StrCat(instr.tuple_index()));
      break;
    case HloOpcode::kBroadcast:
    case HloOpcode::kTranspose:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
      add_dimensions();
      break;
    case HloOpcode::kReduce:
      add_dimensions();
      add_to_apply();
      break;
    case HloOpcode::kMap:
      if (!instr.dimensions().empty()) add_dimensions();
      add_to_apply();
      break;
    case HloOpcode::kSort:
      add_dimensions();
      if (instr.is_stable()) add("is_stable", "true");
      add_to_apply();
      break;
    case HloOpcode::kIota:
      add("iota_dimension", absl::StrCat(instr.iota_dimension()));
      break;
    case HloOpcode::kSlice:
      add("slice", SliceToString(instr));
      break;
    case HloOpcode::kDynamicSlice:
      add("dynamic_slice_sizes", BracedList(instr.slice_sizes()));
      break;
    case HloOpcode::kPad:
      add("padding", instr.padding_config().ToString());
      break;
    case HloOpcode::kCompare:
      add("direction", std::string(ComparisonDirectionToString(instr.comparison_direction())));
      if (instr.explicit_comparison_type() &&
          *instr.explicit_comparison_type() !=
              DefaultComparisonType(instr.operand(0)->shape().element_type())) {
        add("type", std::string(ComparisonTypeToString(*instr.explicit_comparison_type())));
      }
      break;
    case HloOpcode::kConvolution:
      add_conv();
      add_precision();
      break;
    case HloOpcode::kDot:
    case HloOpcode::kRaggedDot: {
      std::string dnums = instr.dot_dimension_numbers().ToString();
      if (!dnums.empty()) add_unkeyed(dnums);
      add_precision();
      break;
    }
    case HloOpcode::kGather:
      add_unkeyed(instr.gather_dimension_numbers().ToString());
      add("slice_sizes", BracedList(instr.slice_sizes()));
      if (instr.indices_are_sorted()) add("indices_are_sorted", "true");
      break;
    case HloOpcode::kScatter:
      add_unkeyed(instr.scatter_dimension_numbers().ToString());
      if (instr.indices_are_sorted()) add("indices_are_sorted", "true");
      if (instr.unique_indices()) add("unique_indices", "true");
      add_to_apply();
      break;
    case HloOpcode::kReduceWindow:
      add_window();
      add_to_apply();
      break;
    case HloOpcode::kSelectAndScatter:
      add_window();
      add("select", Ref(instr.select()));
      add("scatter", Ref(instr.scatter()));
      break;
    case HloOpcode::kFusion:
      add("kind", std::string(FusionKindToString(instr.fusion_kind())));
      add("calls", Ref(instr.fused_instructions_computation()));
      break;
    case HloOpcode::kCall:
      add_to_apply();
      break;
    case HloOpcode::kWhile:
      add("condition", Ref(instr.while_condition()));
      add("body", Ref(instr.while_body()));
      break;
    case HloOpcode::kConditional:
      if (instr.operand(0)->shape().element_type() == PRED && instr.branch_count() == 2) {
        add("true_computation", Ref(instr.true_computation()));
        add("false_computation", Ref(instr.false_computation()));
      } else {
        std::vector<std::string> refs;
        for (HloComputation* c : instr.called_computations()) refs.push_back(Ref(c));
        add("branch_computations", absl::StrCat("{", absl::StrJoin(refs, ", "), "}"));
      }
      break;
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
      add_collective();
      if (instr.use_global_device_ids()) add("use_global_device_ids", "true");
      add_to_apply();
      break;
    case HloOpcode::kReduceScatter:
      add_collective();
      add_dimensions();
      if (instr.use_global_device_ids()) add("use_global_device_ids", "true");
      add_to_apply();
      break;
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
      add_collective();
      add_dimensions();
      if (instr.use_global_device_ids()) add("use_global_device_ids", "true");
      break;
    case HloOpcode::kAllToAll:
    case HloOpcode::kRaggedAllToAll:
      add_collective();
      if (!instr.dimensions().empty()) add_dimensions();
      break;
    case HloOpcode::kCollectiveBroadcast:
      add_collective();
      break;
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
      if (instr.channel_id()) add("channel_id", absl::StrCat(*instr.channel_id()));
      add("source_target_pairs", PairsToString(instr.source_target_pairs()));
      break;
    case HloOpcode::kSend:
    case HloOpcode::kRecv:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecvDone:
      if (instr.channel_id()) add("channel_id", absl::StrCat(*instr.channel_id()));
      if (instr.is_host_transfer()) add("is_host_transfer", "true");
      break;
    case HloOpcode::kCustomCall: {
      const CustomCallOptions& cc = instr.custom_call();
      add("custom_call_target", QuoteString(cc.target));
      add_conv();
      add_precision();
      if (cc.has_side_effect) add("custom_call_has_side_effect", "true");
      if (!instr.called_computations().empty()) {
        std::vector<std::string> refs;
        for (HloComputation* c : instr.called_computations()) refs.push_back(Ref(c));
        add("called_computations", absl::StrCat("{", absl::StrJoin(refs, ", "), "}"));
      }
      if (!cc.output_to_operand_aliasing.empty()) {
        std::vector<std::string> parts;
        for (const auto& [out_index, operand] : cc.output_to_operand_aliasing) {
          parts.push_back(absl::StrCat(ShapeIndexToString(out_index), ": (", operand.first, ", ",
                                       ShapeIndexToString(operand.second), ")"));
        }
        add("output_to_operand_aliasing", absl::StrCat("{", absl::StrJoin(parts, ", "), "}"));
      }
      if (cc.has_layout_constraints) {
        std::vector<std::string> parts;
        for (const Shape& s : cc.operand_layout_constraints) parts.push_back(s.ToString(true));
        add("operand_layout_constraints", absl::StrCat("{", absl::StrJoin(parts, ", "), "}"));
      }
      if (!cc.schedule.empty()) add("schedule", cc.schedule);
      if (!cc.api_version.empty()) add("api_version", cc.api_version);
      if (instr.has_literal()) {
        add("literal", absl::StrCat(instr.literal().shape().ToString(), " ",
                                    instr.literal().ToStringWithoutShape()));
      }
      break;
    }
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      if (!instr.called_computations().empty()) add("calls", Ref(instr.async_wrapped_computation()));
      if (!instr.async_execution_thread().empty()) {
        add("async_execution_thread", QuoteString(instr.async_execution_thread()));
      }
      if (instr.async_group_id()) add("async_group_id", absl::StrCat(*instr.async_group_id()));
      break;
    case HloOpcode::kCopyStart:
      if (instr.cross_program_prefetch_index()) {
        add("cross_program_prefetch_index", absl::StrCat(*instr.cross_program_prefetch_index()));
      }
      break;
    case HloOpcode::kRng:
      add("distribution", std::string(RandomDistributionToString(instr.random_distribution())));
      break;
    case HloOpcode::kRngBitGenerator:
      add("algorithm", std::string(RandomAlgorithmToString(instr.random_algorithm())));
      break;
    case HloOpcode::kRngGetAndUpdateState:
      add("delta", absl::StrCat(instr.delta()));
      break;
    case HloOpcode::kReducePrecision:
      add("exponent_bits", absl::StrCat(instr.exponent_bits()));
      add("mantissa_bits", absl::StrCat(instr.mantissa_bits()));
      break;
    case HloOpcode::kFft:
      add("fft_type", std::string(FftTypeToString(instr.fft_type())));
      add("fft_length", BracedList(instr.fft_length()));
      break;
    case HloOpcode::kTriangularSolve:
      if (instr.left_side()) add("left_side", "true");
      if (instr.lower()) add("lower", "true");
      if (instr.unit_diagonal()) add("unit_diagonal", "true");
      add("transpose_a", std::string(TriangularSolveTransposeToString(instr.transpose_a())));
      break;
    case HloOpcode::kCholesky:
      if (instr.lower()) add("lower", "true");
      break;
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
      add("epsilon", RoundTripFloatToString(instr.epsilon(), F32));
      add("feature_index", absl::StrCat(instr.feature_index()));
      break;
    case HloOpcode::kInfeed:
      if (!instr.infeed_config().empty()) add("infeed_config", QuoteString(instr.infeed_config()));
      break;
    case HloOpcode::kOutfeed:
      if (instr.has_outfeed_shape()) add("outfeed_shape", instr.outfeed_shape().ToString(true));
      if (!instr.infeed_config().empty()) add("outfeed_config", QuoteString(instr.infeed_config()));
      break;
    case HloOpcode::kTopK:
      add("k", absl::StrCat(instr.k()));
      add("largest", Bool(instr.largest()));
      break;
    case HloOpcode::kDomain:
      if (!instr.domain_text().empty()) add("domain", instr.domain_text());
      break;
    default:
      break;
  }
}

// A constant's value; with `max_elements` not negative, an array of more
// elements prints as `{...}` (a tuple element by element, so the parser
// still finds its parentheses).
void AppendLiteralValue(const Literal& literal, int64_t max_elements, std::string* out) {
  if (literal.shape().IsTuple()) {
    out->push_back('(');
    for (int64_t i = 0; i < literal.tuple_size(); ++i) {
      if (i) out->append(", ");
      AppendLiteralValue(literal.tuple_element(i), max_elements, out);
    }
    out->push_back(')');
    return;
  }
  if (max_elements >= 0 && literal.shape().IsArray() && literal.shape().rank() > 0 &&
      literal.element_count() > max_elements) {
    out->append("{...}");
    return;
  }
  AppendLiteralText(literal, out);
}

}  // namespace

std::string FullLiteralText(const HloInstruction& instruction) {
  if (!instruction.has_literal()) return "";
  const Literal& literal = instruction.literal();
  std::string out = literal.shape().ToString();
  out.push_back(' ');
  AppendLiteralValue(literal, /*max_elements=*/-1, &out);
  return out;
}

std::string HloInstruction::OperandsToString() const {
  std::string out;
  AppendOperandsTo(&out);
  return out;
}

void HloInstruction::AppendOperandsTo(std::string* out) const {
  if (opcode_ == HloOpcode::kConstant && has_literal()) {
    AppendLiteralValue(literal(), /*max_elements=*/-1, out);
    return;
  }
  if (opcode_ == HloOpcode::kParameter) {
    absl::StrAppend(out, parameter_number());
    return;
  }
  for (size_t i = 0; i < operands_.size(); ++i) {
    if (i) out->append(", ");
    operands_[i]->shape().AppendTo(out, /*print_layout=*/true);
    absl::StrAppend(out, " %", operands_[i]->name());
  }
}

std::string HloInstruction::AttributesToString() const {
  std::string out;
  AppendAttributesTo(&out);
  return out;
}

void HloInstruction::AppendAttributesTo(std::string* out) const {
  AppendOpcodeAttributes(*this, out);
  if (has_sharding()) absl::StrAppend(out, ", sharding=", sharding().ToString(true));
  if (!frontend_attributes().empty()) {
    absl::StrAppend(out, ", frontend_attributes=", FrontendAttributesToString(frontend_attributes()));
  }
  if (!control_preds_.empty()) {
    out->append(", control-predecessors={");
    for (size_t i = 0; i < control_preds_.size(); ++i) {
      absl::StrAppend(out, i ? ", %" : "%", control_preds_[i]->name());
    }
    out->append("}");
  }
  if (!metadata().empty()) absl::StrAppend(out, ", metadata={", metadata().ToString(), "}");
  if (!backend_config().empty()) {
    const std::string& config = backend_config();
    absl::StrAppend(out, ", backend_config=", config.front() == '{' ? config : QuoteString(config));
  }
  for (const auto& [key, value] : raw_attributes()) absl::StrAppend(out, ", ", key, "=", value);
}

std::string HloInstruction::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void HloInstruction::AppendTo(std::string* out) const {
  AppendInstructionText(*this, HloPrintOptions::Full(), out);
}

void AppendInstructionText(const HloInstruction& instr, const HloPrintOptions& options,
                           std::string* out) {
  absl::StrAppend(out, instr.IsRoot() ? "ROOT %" : "%", instr.name(), " = ");
  instr.shape().AppendTo(out, /*print_layout=*/true);
  absl::StrAppend(out, " ", HloOpcodeString(instr.opcode()), "(");
  if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) {
    AppendLiteralValue(instr.literal(), options.max_constant_elements, out);
  } else {
    instr.AppendOperandsTo(out);
  }
  out->push_back(')');
  instr.AppendAttributesTo(out);
}

std::string HloComputation::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void HloComputation::AppendTo(std::string* out, const InstructionPrinted& on_printed) const {
  AppendComputationText(*this, HloPrintOptions::Full(), out, on_printed);
}

void AppendComputationText(const HloComputation& computation, const HloPrintOptions& options,
                           std::string* out, const InstructionPrinted& on_printed) {
  absl::StrAppend(out, "%", computation.name(), " (");
  bool first = true;
  for (const HloInstruction* p : computation.parameter_instructions()) {
    if (!p) continue;
    absl::StrAppend(out, first ? "" : ", ", p->name(), ": ");
    p->shape().AppendTo(out, /*print_layout=*/true);
    first = false;
  }
  out->append(") -> ");
  if (const HloInstruction* root = computation.root_instruction()) {
    root->shape().AppendTo(out, /*print_layout=*/true);
  } else {
    out->append("()");
  }
  out->append(" {\n");
  for (const HloInstruction* instr : computation.PrintOrder()) {
    out->append("  ");
    AppendInstructionText(*instr, options, out);
    out->push_back('\n');
    if (on_printed) on_printed(*instr);
  }
  out->append("}");
  // XLA writes a non-main execution thread after the body.
  if (computation.execution_thread() != "main") {
    absl::StrAppend(out, ", execution_thread=", QuoteString(computation.execution_thread()));
  }
  out->push_back('\n');
}

namespace {

std::string AliasesToString(const std::vector<InputOutputAlias>& aliases) {
  std::vector<std::string> parts;
  for (const InputOutputAlias& a : aliases) {
    parts.push_back(absl::StrCat(ShapeIndexToString(a.output_index), ": (", a.parameter_number,
                                 ", ", ShapeIndexToString(a.parameter_index),
                                 a.must_alias ? ", must-alias" : ", may-alias", ")"));
  }
  return absl::StrCat("{ ", absl::StrJoin(parts, ", "), " }");
}

std::string DonorsToString(const std::vector<BufferDonor>& donors) {
  std::vector<std::string> parts;
  for (const BufferDonor& d : donors) {
    parts.push_back(absl::StrCat("(", d.parameter_number, ", ",
                                 ShapeIndexToString(d.parameter_index), ")"));
  }
  return absl::StrCat("{ ", absl::StrJoin(parts, ", "), " }");
}

std::string EntryLayoutToString(const ProgramShape& ps) {
  std::vector<std::string> params;
  for (const Shape& p : ps.parameters) params.push_back(p.ToString(true));
  return absl::StrCat("{(", absl::StrJoin(params, ","), ")->", ps.result.ToString(true), "}");
}

}  // namespace

std::string HloModule::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void HloModule::AppendTo(std::string* out, const InstructionPrinted& on_printed) const {
  AppendModuleText(*this, HloPrintOptions::Full(), out, on_printed);
}

std::string ModuleText(const HloModule& module, const HloPrintOptions& options) {
  std::string out;
  AppendModuleText(module, options, &out);
  return out;
}

void AppendModuleText(const HloModule& module, const HloPrintOptions& options,
                      std::string* out_ptr, const InstructionPrinted& on_printed) {
  std::string& out = *out_ptr;
  absl::StrAppend(&out, "HloModule ", module.name());
  if (module.is_scheduled()) out += ", is_scheduled=true";
  if (module.has_entry_computation_layout()) {
    absl::StrAppend(&out, ", entry_computation_layout=",
                    EntryLayoutToString(module.entry_computation_layout()));
  }
  if (!module.input_output_aliases().empty()) {
    absl::StrAppend(&out, ", input_output_alias=", AliasesToString(module.input_output_aliases()));
  }
  if (!module.buffer_donors().empty()) {
    absl::StrAppend(&out, ", buffer_donor=", DonorsToString(module.buffer_donors()));
  }
  for (const auto& [key, value] : module.raw_attributes()) {
    absl::StrAppend(&out, ", ", key, "=", value);
  }
  if (module.replica_count() != 1) absl::StrAppend(&out, ", replica_count=", module.replica_count());
  if (module.num_partitions() != 1) {
    absl::StrAppend(&out, ", num_partitions=", module.num_partitions());
  }
  if (!module.frontend_attributes().empty()) {
    absl::StrAppend(&out, ", frontend_attributes=",
                    FrontendAttributesToString(module.frontend_attributes()));
  }
  out += "\n";
  // About 70 bytes a line: one allocation instead of a doubling series
  // over a large module's megabytes.
  out.reserve(out.size() + size_t(module.instruction_count()) * 80);
  for (const HloComputation* c : module.MakeComputationPostOrder()) {
    out += "\n";
    if (c == module.entry_computation()) out += "ENTRY ";
    AppendComputationText(*c, options, &out, on_printed);
  }
}

}  // namespace systolic
