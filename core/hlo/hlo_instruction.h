// One HLO instruction: an opcode, a shape, operands, called computations and
// the attributes of its opcode. A single class holds the attributes of every
// opcode (each is meaningful only for the opcodes that print it), so passes,
// the printer and the parser treat instructions uniformly.
#pragma once

#include "absl/strings/string_view.h"
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/hlo/collective_device_list.h"
#include "core/hlo/comparison.h"
#include "core/hlo/deep_copy_ptr.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/hlo_opcode.h"
#include "core/hlo/hlo_sharding.h"
#include "core/hlo/literal.h"
#include "core/hlo/op_metadata.h"
#include "core/hlo/precision_config.h"
#include "core/hlo/shape.h"
#include "core/hlo/window.h"

namespace systolic {

class HloComputation;
class HloModule;

using ShapeIndex = std::vector<int64_t>;
std::string ShapeIndexToString(const ShapeIndex& index);  // "{0,1}"

// A constant's value, shared between clones; compared by value.
struct SharedLiteral {
  std::shared_ptr<const Literal> ptr;
  friend bool operator==(const SharedLiteral& a, const SharedLiteral& b) {
    if (a.ptr == b.ptr) return true;
    return a.ptr && b.ptr && *a.ptr == *b.ptr;
  }
};

enum class FusionKind { kLoop, kInput, kOutput, kCustom };
absl::string_view FusionKindToString(FusionKind kind);  // "kLoop"
std::optional<FusionKind> StringToFusionKind(absl::string_view s);

enum class RandomDistribution { kUniform, kNormal };
enum class RandomAlgorithm { kDefault, kThreeFry, kPhilox };
enum class FftType { kFft, kIfft, kRfft, kIrfft };
enum class TriangularSolveTranspose { kNoTranspose, kTranspose, kAdjoint };

// Where an instruction came from: the original instructions (before any pass
// ran) it was made of. Passes that create instructions merge the provenance
// of what they replace, so any two snapshots can be linked op by op.
struct ProvenanceEntry {
  int64_t unique_id;
  std::string name;
  friend bool operator==(const ProvenanceEntry&, const ProvenanceEntry&) = default;
};

// Options of a custom-call that round-trip through text.
struct CustomCallOptions {
  std::string target;
  bool has_side_effect = false;
  std::string api_version;  // e.g. "API_VERSION_STATUS_RETURNING"; empty = default
  std::string schedule;     // e.g. "SCHEDULE_LATEST"; empty = none
  // {output shape index: (operand, operand shape index)}
  std::vector<std::pair<ShapeIndex, std::pair<int64_t, ShapeIndex>>> output_to_operand_aliasing;
  std::vector<Shape> operand_layout_constraints;
  bool has_layout_constraints = false;
  friend bool operator==(const CustomCallOptions&, const CustomCallOptions&) = default;
};

class HloInstruction {
 public:
  // --- Construction -------------------------------------------------------
  // Generic: the attributes are set afterwards through the setters.
  static std::unique_ptr<HloInstruction> Create(HloOpcode opcode, Shape shape,
                                                absl::Span<HloInstruction* const> operands);
  static std::unique_ptr<HloInstruction> CreateParameter(int64_t number, const Shape& shape,
                                                         std::string name);
  static std::unique_ptr<HloInstruction> CreateConstant(Literal literal);
  static std::unique_ptr<HloInstruction> CreateUnary(const Shape& shape, HloOpcode opcode,
                                                     HloInstruction* operand);
  static std::unique_ptr<HloInstruction> CreateBinary(const Shape& shape, HloOpcode opcode,
                                                      HloInstruction* lhs, HloInstruction* rhs);
  static std::unique_ptr<HloInstruction> CreateTernary(const Shape& shape, HloOpcode opcode,
                                                       HloInstruction* a, HloInstruction* b,
                                                       HloInstruction* c);
  static std::unique_ptr<HloInstruction> CreateCompare(const Shape& shape, HloInstruction* lhs,
                                                       HloInstruction* rhs,
                                                       ComparisonDirection direction,
                                                       std::optional<ComparisonType> type = {});
  static std::unique_ptr<HloInstruction> CreateConvert(const Shape& shape,
                                                       HloInstruction* operand);
  static std::unique_ptr<HloInstruction> CreateBroadcast(const Shape& shape,
                                                         HloInstruction* operand,
                                                         std::vector<int64_t> dimensions);
  static std::unique_ptr<HloInstruction> CreateReshape(const Shape& shape,
                                                       HloInstruction* operand);
  static std::unique_ptr<HloInstruction> CreateTranspose(const Shape& shape,
                                                         HloInstruction* operand,
                                                         std::vector<int64_t> permutation);
  static std::unique_ptr<HloInstruction> CreateSlice(const Shape& shape, HloInstruction* operand,
                                                     std::vector<int64_t> starts,
                                                     std::vector<int64_t> limits,
                                                     std::vector<int64_t> strides);
  static std::unique_ptr<HloInstruction> CreateConcatenate(
      const Shape& shape, absl::Span<HloInstruction* const> operands, int64_t dimension);
  static std::unique_ptr<HloInstruction> CreateReduce(const Shape& shape,
                                                      absl::Span<HloInstruction* const> operands,
                                                      absl::Span<HloInstruction* const> inits,
                                                      std::vector<int64_t> dimensions,
                                                      HloComputation* reducer);
  static std::unique_ptr<HloInstruction> CreateDot(const Shape& shape, HloInstruction* lhs,
                                                   HloInstruction* rhs,
                                                   DotDimensionNumbers dnums,
                                                   PrecisionConfig precision = {});
  static std::unique_ptr<HloInstruction> CreateTuple(absl::Span<HloInstruction* const> elements);
  static std::unique_ptr<HloInstruction> CreateGetTupleElement(HloInstruction* tuple,
                                                               int64_t index);
  static std::unique_ptr<HloInstruction> CreateIota(const Shape& shape, int64_t dimension);
  static std::unique_ptr<HloInstruction> CreatePad(const Shape& shape, HloInstruction* operand,
                                                   HloInstruction* padding_value,
                                                   PaddingConfig config);
  static std::unique_ptr<HloInstruction> CreateFusion(const Shape& shape, FusionKind kind,
                                                      absl::Span<HloInstruction* const> operands,
                                                      HloComputation* fused_computation);
  static std::unique_ptr<HloInstruction> CreateCall(const Shape& shape,
                                                    absl::Span<HloInstruction* const> operands,
                                                    HloComputation* computation);
  static std::unique_ptr<HloInstruction> CreateWhile(const Shape& shape, HloComputation* condition,
                                                     HloComputation* body, HloInstruction* init);

  // A copy of this instruction with new operands (same attributes and called
  // computations); the copy has no parent until added to a computation.
  std::unique_ptr<HloInstruction> CloneWithNewOperands(
      const Shape& shape, absl::Span<HloInstruction* const> new_operands) const;
  // The same copy under another opcode (a collective becoming its -start:
  // groups, channel, sharding and metadata carried over).
  std::unique_ptr<HloInstruction> CloneWithNewOpcode(
      HloOpcode opcode, const Shape& shape, absl::Span<HloInstruction* const> new_operands) const;

  // --- Identity -----------------------------------------------------------
  HloOpcode opcode() const { return opcode_; }
  const Shape& shape() const { return shape_; }
  Shape* mutable_shape() { return &shape_; }
  const std::string& name() const { return name_; }
  void SetName(std::string name) { name_ = std::move(name); }
  int64_t unique_id() const { return unique_id_; }
  void SetUniqueId(int64_t id) { unique_id_ = id; }
  HloComputation* parent() const { return parent_; }
  HloModule* GetModule() const;
  // Dense position in the parent computation (see
  // HloComputation::instruction_index_bound), or -1 outside a computation.
  int64_t index_in_computation() const { return index_in_parent_; }

  // --- Operands and users ---------------------------------------------------
  const std::vector<HloInstruction*>& operands() const { return operands_; }
  HloInstruction* operand(int64_t i) const { return operands_[i]; }
  HloInstruction* mutable_operand(int64_t i) { return operands_[i]; }
  int64_t operand_count() const { return int64_t(operands_.size()); }
  int64_t operand_index(const HloInstruction* operand) const;  // first position, or -1
  const std::vector<HloInstruction*>& users() const { return users_; }
  int64_t user_count() const { return int64_t(users_.size()); }
  bool IsDead() const { return users_.empty() && !IsRoot(); }
  bool IsRoot() const;

  void AppendOperand(HloInstruction* operand);
  void ReplaceOperandWith(int64_t index, HloInstruction* new_operand);
  // Every use of `old_operand` among this instruction's operands.
  void ReplaceUseWith(HloInstruction* old_operand, HloInstruction* new_operand);
  // Every user of this instruction now uses `replacement` (and the root moves).
  void ReplaceAllUsesWith(HloInstruction* replacement);
  // Drops all operands (and this instruction from their user lists).
  void DetachFromOperandsAndUsers();

  const std::vector<HloInstruction*>& control_predecessors() const { return control_preds_; }
  const std::vector<HloInstruction*>& control_successors() const { return control_succs_; }
  void AddControlDependencyTo(HloInstruction* successor);
  void RemoveAllControlDependencies();

  // --- Called computations --------------------------------------------------
  const std::vector<HloComputation*>& called_computations() const { return called_; }
  void AppendCalledComputation(HloComputation* c) { called_.push_back(c); }
  void set_called_computation(int64_t i, HloComputation* c) { called_[i] = c; }
  void ClearCalledComputations() { called_.clear(); }
  HloComputation* to_apply() const { return called_.empty() ? nullptr : called_[0]; }
  HloComputation* while_condition() const { return Called(0, "while_condition", HloOpcode::kWhile); }
  HloComputation* while_body() const { return Called(1, "while_body", HloOpcode::kWhile); }
  HloComputation* select() const { return Called(0, "select", HloOpcode::kSelectAndScatter); }
  HloComputation* scatter() const { return Called(1, "scatter", HloOpcode::kSelectAndScatter); }
  HloComputation* true_computation() const {
    return Called(0, "true_computation", HloOpcode::kConditional);
  }
  HloComputation* false_computation() const {
    return Called(1, "false_computation", HloOpcode::kConditional);
  }
  HloComputation* branch_computation(int64_t i) const {
    return Called(i, "branch_computation", HloOpcode::kConditional);
  }
  int64_t branch_count() const { return int64_t(called_.size()); }
  HloComputation* fused_instructions_computation() const {
    return Called(0, "fused_instructions_computation", HloOpcode::kFusion);
  }
  HloComputation* async_wrapped_computation() const {
    return Called(0, "async_wrapped_computation", HloOpcode::kAsyncStart, HloOpcode::kAsyncUpdate,
                  HloOpcode::kAsyncDone);
  }
  // The root of a fusion's computation.
  HloInstruction* fused_expression_root() const;

  // --- Attributes -----------------------------------------------------------
  const Literal& literal() const {
    CheckOpcode("literal", HloOpcode::kConstant, HloOpcode::kCustomCall);  // literal=…
    return *a_.literal_.ptr;
  }
  bool has_literal() const { return a_.literal_.ptr != nullptr; }
  void set_literal(Literal literal) {
    a_.literal_.ptr = std::make_shared<const Literal>(std::move(literal));
  }
  // True when every opcode attribute (not operands, names or ids) is equal.
  bool SameAttributesAs(const HloInstruction& other) const { return a_ == other.a_; }

  int64_t parameter_number() const {
    CheckOpcode("parameter_number", HloOpcode::kParameter);
    return a_.parameter_number_;
  }
  void set_parameter_number(int64_t n) { a_.parameter_number_ = n; }
  int64_t tuple_index() const {
    CheckOpcode("tuple_index", HloOpcode::kGetTupleElement);
    return a_.tuple_index_;
  }
  void set_tuple_index(int64_t i) { a_.tuple_index_ = i; }

  // broadcast, transpose, reverse, reduce, map, sort, concatenate,
  // all-gather, reduce-scatter, all-to-all, get/set-dimension-size.
  const std::vector<int64_t>& dimensions() const { return a_.dimensions_; }
  int64_t dimensions(int64_t i) const { return a_.dimensions_[i]; }
  std::vector<int64_t>* mutable_dimensions() { return &a_.dimensions_; }
  void set_dimensions(std::vector<int64_t> d) { a_.dimensions_ = std::move(d); }
  int64_t concatenate_dimension() const {
    CheckOpcode("concatenate_dimension", HloOpcode::kConcatenate);
    return a_.dimensions_[0];
  }
  int64_t iota_dimension() const {
    CheckOpcode("iota_dimension", HloOpcode::kIota);
    return a_.dimensions_[0];
  }

  const std::vector<int64_t>& slice_starts() const { return rare().slice_starts_; }
  const std::vector<int64_t>& slice_limits() const { return rare().slice_limits_; }
  const std::vector<int64_t>& slice_strides() const { return rare().slice_strides_; }
  void set_slice(std::vector<int64_t> starts, std::vector<int64_t> limits,
                 std::vector<int64_t> strides);
  // dynamic-slice sizes and gather slice sizes.
  const std::vector<int64_t>& slice_sizes() const { return rare().slice_sizes_; }
  void set_slice_sizes(std::vector<int64_t> sizes) { mutable_rare()->slice_sizes_ = std::move(sizes); }

  const PaddingConfig& padding_config() const { return rare().padding_config_; }
  void set_padding_config(PaddingConfig c) { mutable_rare()->padding_config_ = std::move(c); }

  bool has_window() const { return rare().has_window_; }
  const Window& window() const { return rare().window_; }
  void set_window(Window w) {
    mutable_rare()->window_ = std::move(w);
    mutable_rare()->has_window_ = true;
  }
  bool has_convolution_dimension_numbers() const { return rare().has_conv_dnums_; }
  const ConvolutionDimensionNumbers& convolution_dimension_numbers() const { return rare().conv_dnums_; }
  void set_convolution_dimension_numbers(ConvolutionDimensionNumbers d) {
    mutable_rare()->conv_dnums_ = std::move(d);
    mutable_rare()->has_conv_dnums_ = true;
  }
  int64_t feature_group_count() const { return rare().feature_group_count_; }
  void set_feature_group_count(int64_t n) { mutable_rare()->feature_group_count_ = n; }
  int64_t batch_group_count() const { return rare().batch_group_count_; }
  void set_batch_group_count(int64_t n) { mutable_rare()->batch_group_count_ = n; }

  const DotDimensionNumbers& dot_dimension_numbers() const { return rare().dot_dnums_; }
  void set_dot_dimension_numbers(DotDimensionNumbers d) { mutable_rare()->dot_dnums_ = std::move(d); }
  const PrecisionConfig& precision_config() const { return rare().precision_; }
  PrecisionConfig* mutable_precision_config() { return &mutable_rare()->precision_; }

  const GatherDimensionNumbers& gather_dimension_numbers() const { return rare().gather_dnums_; }
  void set_gather_dimension_numbers(GatherDimensionNumbers d) { mutable_rare()->gather_dnums_ = std::move(d); }
  const ScatterDimensionNumbers& scatter_dimension_numbers() const { return rare().scatter_dnums_; }
  void set_scatter_dimension_numbers(ScatterDimensionNumbers d) {
    mutable_rare()->scatter_dnums_ = std::move(d);
  }
  bool indices_are_sorted() const { return rare().indices_are_sorted_; }
  void set_indices_are_sorted(bool v) { mutable_rare()->indices_are_sorted_ = v; }
  bool unique_indices() const { return rare().unique_indices_; }
  void set_unique_indices(bool v) { mutable_rare()->unique_indices_ = v; }

  ComparisonDirection comparison_direction() const {
    CheckOpcode("comparison_direction", HloOpcode::kCompare);
    return a_.comparison_direction_;
  }
  void set_comparison_direction(ComparisonDirection d) { a_.comparison_direction_ = d; }
  // The explicit `type=` of a compare, if printed.
  std::optional<ComparisonType> explicit_comparison_type() const { return a_.comparison_type_; }
  void set_comparison_type(std::optional<ComparisonType> t) { a_.comparison_type_ = t; }
  // The comparison type in effect (explicit or inferred from the operands).
  ComparisonType comparison_type() const;

  FusionKind fusion_kind() const {
    CheckOpcode("fusion_kind", HloOpcode::kFusion);
    return a_.fusion_kind_;
  }
  void set_fusion_kind(FusionKind k) { a_.fusion_kind_ = k; }

  const CustomCallOptions& custom_call() const { return rare().custom_call_; }
  CustomCallOptions* mutable_custom_call() { return &mutable_rare()->custom_call_; }
  const std::string& custom_call_target() const { return rare().custom_call_.target; }

  // Raw text of backend_config (a JSON object keeps its braces).
  const std::string& backend_config() const { return a_.backend_config_; }
  void set_backend_config(std::string c) { a_.backend_config_ = std::move(c); }

  std::optional<int64_t> channel_id() const { return rare().channel_id_; }
  void set_channel_id(std::optional<int64_t> id) { mutable_rare()->channel_id_ = id; }
  const CollectiveDeviceList& device_list() const { return rare().device_list_; }
  const std::vector<std::vector<int64_t>>& replica_groups() const {
    return rare().device_list_.replica_groups();
  }
  void set_device_list(CollectiveDeviceList l) { mutable_rare()->device_list_ = std::move(l); }
  bool constrain_layout() const { return rare().constrain_layout_; }
  void set_constrain_layout(bool v) { mutable_rare()->constrain_layout_ = v; }
  bool use_global_device_ids() const { return rare().use_global_device_ids_; }
  void set_use_global_device_ids(bool v) { mutable_rare()->use_global_device_ids_ = v; }
  const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs() const { return rare().pairs_; }
  void set_source_target_pairs(std::vector<std::pair<int64_t, int64_t>> p) {
    mutable_rare()->pairs_ = std::move(p);
  }
  bool is_host_transfer() const { return rare().is_host_transfer_; }
  void set_is_host_transfer(bool v) { mutable_rare()->is_host_transfer_ = v; }

  bool has_sharding() const { return a_.sharding_.has_value(); }
  const HloSharding& sharding() const { return a_.sharding_.get(); }
  void set_sharding(HloSharding s) { a_.sharding_.set(std::move(s)); }
  void clear_sharding() { a_.sharding_.reset(); }

  const OpMetadata& metadata() const { return a_.metadata_.get(); }
  OpMetadata* mutable_metadata() { return a_.metadata_.mutable_get(); }
  void set_metadata(OpMetadata m) {
    if (m.empty()) {
      a_.metadata_.reset();
    } else {
      a_.metadata_.set(std::move(m));
    }
  }
  const FrontendAttributes& frontend_attributes() const { return a_.frontend_attributes_; }
  FrontendAttributes* mutable_frontend_attributes() { return &a_.frontend_attributes_; }

  RandomDistribution random_distribution() const {
    CheckOpcode("random_distribution", HloOpcode::kRng);
    return rare().rng_distribution_;
  }
  void set_random_distribution(RandomDistribution d) { mutable_rare()->rng_distribution_ = d; }
  RandomAlgorithm random_algorithm() const {
    CheckOpcode("random_algorithm", HloOpcode::kRngBitGenerator);
    return rare().rng_algorithm_;
  }
  void set_random_algorithm(RandomAlgorithm a) { mutable_rare()->rng_algorithm_ = a; }
  int64_t delta() const {
    CheckOpcode("delta", HloOpcode::kRngGetAndUpdateState);
    return rare().delta_;
  }
  void set_delta(int64_t d) { mutable_rare()->delta_ = d; }

  int64_t exponent_bits() const {
    CheckOpcode("exponent_bits", HloOpcode::kReducePrecision);
    return rare().exponent_bits_;
  }
  int64_t mantissa_bits() const {
    CheckOpcode("mantissa_bits", HloOpcode::kReducePrecision);
    return rare().mantissa_bits_;
  }
  void set_reduce_precision(int64_t exponent_bits, int64_t mantissa_bits) {
    mutable_rare()->exponent_bits_ = exponent_bits;
    mutable_rare()->mantissa_bits_ = mantissa_bits;
  }

  FftType fft_type() const {
    CheckOpcode("fft_type", HloOpcode::kFft);
    return rare().fft_type_;
  }
  void set_fft_type(FftType t) { mutable_rare()->fft_type_ = t; }
  const std::vector<int64_t>& fft_length() const {
    CheckOpcode("fft_length", HloOpcode::kFft);
    return rare().fft_length_;
  }
  void set_fft_length(std::vector<int64_t> l) { mutable_rare()->fft_length_ = std::move(l); }

  // triangular-solve and cholesky
  bool left_side() const {
    CheckOpcode("left_side", HloOpcode::kTriangularSolve);
    return rare().left_side_;
  }
  void set_left_side(bool v) { mutable_rare()->left_side_ = v; }
  bool lower() const {
    CheckOpcode("lower", HloOpcode::kTriangularSolve, HloOpcode::kCholesky);
    return rare().lower_;
  }
  void set_lower(bool v) { mutable_rare()->lower_ = v; }
  bool unit_diagonal() const {
    CheckOpcode("unit_diagonal", HloOpcode::kTriangularSolve);
    return rare().unit_diagonal_;
  }
  void set_unit_diagonal(bool v) { mutable_rare()->unit_diagonal_ = v; }
  TriangularSolveTranspose transpose_a() const {
    CheckOpcode("transpose_a", HloOpcode::kTriangularSolve);
    return rare().transpose_a_;
  }
  void set_transpose_a(TriangularSolveTranspose t) { mutable_rare()->transpose_a_ = t; }

  float epsilon() const {
    CheckOpcode("epsilon", HloOpcode::kBatchNormTraining, HloOpcode::kBatchNormInference,
                HloOpcode::kBatchNormGrad);
    return rare().epsilon_;
  }
  void set_epsilon(float e) { mutable_rare()->epsilon_ = e; }
  int64_t feature_index() const {
    CheckOpcode("feature_index", HloOpcode::kBatchNormTraining, HloOpcode::kBatchNormInference,
                HloOpcode::kBatchNormGrad);
    return rare().feature_index_;
  }
  void set_feature_index(int64_t i) { mutable_rare()->feature_index_ = i; }

  bool is_stable() const {
    CheckOpcode("is_stable", HloOpcode::kSort);
    return rare().is_stable_;
  }
  void set_is_stable(bool v) { mutable_rare()->is_stable_ = v; }
  int64_t k() const {
    CheckOpcode("k", HloOpcode::kTopK);
    return rare().k_;
  }
  void set_k(int64_t k) { mutable_rare()->k_ = k; }
  bool largest() const {
    CheckOpcode("largest", HloOpcode::kTopK);
    return rare().largest_;
  }
  void set_largest(bool v) { mutable_rare()->largest_ = v; }

  // infeed_config / outfeed_config
  const std::string& infeed_config() const { return rare().feed_config_; }
  void set_feed_config(std::string c) { mutable_rare()->feed_config_ = std::move(c); }
  bool has_outfeed_shape() const { return rare().has_outfeed_shape_; }
  const Shape& outfeed_shape() const { return rare().outfeed_shape_; }
  void set_outfeed_shape(Shape s) {
    mutable_rare()->outfeed_shape_ = std::move(s);
    mutable_rare()->has_outfeed_shape_ = true;
  }

  // parameter_replication={true,false}
  const std::vector<bool>& parameter_replication() const { return rare().parameter_replication_; }
  void set_parameter_replication(std::vector<bool> r) { mutable_rare()->parameter_replication_ = std::move(r); }

  // async-start / -update / -done
  const std::string& async_execution_thread() const { return rare().async_execution_thread_; }
  void set_async_execution_thread(std::string t) { mutable_rare()->async_execution_thread_ = std::move(t); }
  std::optional<int64_t> async_group_id() const { return rare().async_group_id_; }
  void set_async_group_id(std::optional<int64_t> id) { mutable_rare()->async_group_id_ = id; }
  std::optional<int64_t> cross_program_prefetch_index() const { return rare().cross_program_prefetch_; }
  void set_cross_program_prefetch_index(std::optional<int64_t> i) { mutable_rare()->cross_program_prefetch_ = i; }

  // domain={kind="sharding", entry=..., exit=...}: kept as text.
  const std::string& domain_text() const { return rare().domain_text_; }
  void set_domain_text(std::string t) { mutable_rare()->domain_text_ = std::move(t); }

  // Attributes this product does not interpret, kept verbatim for printing:
  // (name, raw value text).
  const std::vector<std::pair<std::string, std::string>>& raw_attributes() const {
    return rare().raw_attributes_;
  }
  void add_raw_attribute(std::string name, std::string value) {
    mutable_rare()->raw_attributes_.emplace_back(std::move(name), std::move(value));
  }

  // Where the instruction was written in the text it was parsed from (line
  // and column are 1-based; 0 when it was not parsed).
  struct SourceLocation {
    int line = 0;
    int column = 0;
  };
  const SourceLocation& source_location() const { return source_location_; }
  void set_source_location(SourceLocation l) { source_location_ = l; }

  // --- Provenance -----------------------------------------------------------
  const std::vector<ProvenanceEntry>& provenance() const { return provenance_; }
  void set_provenance(std::vector<ProvenanceEntry> p) { provenance_ = std::move(p); }
  // Adds the provenance of `other` (or `other` itself if it has none).
  void MergeProvenanceFrom(const HloInstruction& other);

  // --- Classification -------------------------------------------------------
  bool IsElementwise() const;
  bool IsFused() const;  // lives in a fusion computation
  // Has a side effect that forbids removal (send/recv, infeed/outfeed,
  // collectives with side effects, custom calls that say so, rng).
  bool HasSideEffect() const;

  // --- Printing ---------------------------------------------------------------
  // `%name = f32[2]{0} add(f32[2]{0} %a, f32[2]{0} %b), metadata={...}`
  std::string ToString() const;
  void AppendTo(std::string* out) const;  // appends ToString()
  // Operands and attributes only: `f32[2]{0} %a, f32[2]{0} %b), ...`.
  std::string OperandsToString() const;
  void AppendOperandsTo(std::string* out) const;
  // `, dimensions={0}, to_apply=%add` (attributes after the operand list).
  std::string AttributesToString() const;
  void AppendAttributesTo(std::string* out) const;

 private:
  friend class HloComputation;
  HloInstruction(HloOpcode opcode, Shape shape);
  void RemoveUser(HloInstruction* user);
  void AddUser(HloInstruction* user);

  // The accessors of one opcode's attributes or computations check it in
  // builds with SYSTOLIC_CHECK_HLO_ACCESSORS (the CI, debug and sanitizer
  // builds): asking a fusion for its while body is a bug, not a default.
  template <typename... Opcodes>
  void CheckOpcode(const char* accessor, Opcodes... allowed) const {
#ifdef SYSTOLIC_CHECK_HLO_ACCESSORS
    if (((opcode_ != allowed) && ...)) AccessorMisused(accessor);
#else
    (void)accessor;
    ((void)allowed, ...);
#endif
  }
  template <typename... Opcodes>
  HloComputation* Called(int64_t i, const char* accessor, Opcodes... allowed) const {
    CheckOpcode(accessor, allowed...);
#ifdef SYSTOLIC_CHECK_HLO_ACCESSORS
    if (i < 0 || i >= int64_t(called_.size())) AccessorMisused(accessor);
#endif
    return called_[size_t(i)];
  }
  [[noreturn]] void AccessorMisused(const char* accessor) const;

  HloOpcode opcode_;
  Shape shape_;
  std::string name_;
  int64_t unique_id_ = -1;
  HloComputation* parent_ = nullptr;
  int64_t index_in_parent_ = -1;  // slot in parent_'s instruction list

  std::vector<HloInstruction*> operands_;
  std::vector<HloInstruction*> users_;
  // Position of each user in users_, kept once an instruction has many users
  // so adding and removing users stays O(1) (a parameter may feed thousands).
  std::unique_ptr<absl::flat_hash_map<const HloInstruction*, size_t>> user_positions_;
  std::vector<HloInstruction*> control_preds_;
  std::vector<HloInstruction*> control_succs_;
  std::vector<HloComputation*> called_;

  // Every opcode attribute, in one copyable struct so clones copy them all.
  // Attributes most instructions have are stored inline; the rest live in
  // a lazily allocated block, so an instruction stays small.
  struct RareAttributes {
    std::vector<int64_t> slice_starts_, slice_limits_, slice_strides_;
    std::vector<int64_t> slice_sizes_;
    PaddingConfig padding_config_;
    Window window_;
    bool has_window_ = false;
    ConvolutionDimensionNumbers conv_dnums_;
    bool has_conv_dnums_ = false;
    int64_t feature_group_count_ = 1;
    int64_t batch_group_count_ = 1;
    DotDimensionNumbers dot_dnums_;
    PrecisionConfig precision_;
    GatherDimensionNumbers gather_dnums_;
    ScatterDimensionNumbers scatter_dnums_;
    bool indices_are_sorted_ = false;
    bool unique_indices_ = false;
    CustomCallOptions custom_call_;
    std::optional<int64_t> channel_id_;
    CollectiveDeviceList device_list_;
    bool constrain_layout_ = false;
    bool use_global_device_ids_ = false;
    std::vector<std::pair<int64_t, int64_t>> pairs_;
    bool is_host_transfer_ = false;
    RandomDistribution rng_distribution_ = RandomDistribution::kUniform;
    RandomAlgorithm rng_algorithm_ = RandomAlgorithm::kDefault;
    int64_t delta_ = 0;
    int64_t exponent_bits_ = 0, mantissa_bits_ = 0;
    FftType fft_type_ = FftType::kFft;
    std::vector<int64_t> fft_length_;
    bool left_side_ = false, lower_ = false, unit_diagonal_ = false;
    TriangularSolveTranspose transpose_a_ = TriangularSolveTranspose::kNoTranspose;
    float epsilon_ = 0;
    int64_t feature_index_ = 0;
    bool is_stable_ = false;
    int64_t k_ = 0;
    bool largest_ = true;
    std::string feed_config_;
    Shape outfeed_shape_;
    bool has_outfeed_shape_ = false;
    std::vector<bool> parameter_replication_;
    std::string async_execution_thread_;
    std::optional<int64_t> async_group_id_;
    std::optional<int64_t> cross_program_prefetch_;
    std::string domain_text_;
    std::vector<std::pair<std::string, std::string>> raw_attributes_;
    friend bool operator==(const RareAttributes&, const RareAttributes&) = default;
  };
  struct Attributes {
    SharedLiteral literal_;  // immutable, shared by clones
    int64_t parameter_number_ = -1;
    int64_t tuple_index_ = -1;
    std::vector<int64_t> dimensions_;
    ComparisonDirection comparison_direction_ = ComparisonDirection::kEq;
    std::optional<ComparisonType> comparison_type_;
    FusionKind fusion_kind_ = FusionKind::kLoop;
    std::string backend_config_;
    DeepCopyPtr<HloSharding, /*kNullIsDefault=*/false> sharding_;
    DeepCopyPtr<OpMetadata, /*kNullIsDefault=*/true> metadata_;
    FrontendAttributes frontend_attributes_;
    DeepCopyPtr<RareAttributes, /*kNullIsDefault=*/true> rare_;
    friend bool operator==(const Attributes&, const Attributes&) = default;
  };
  const RareAttributes& rare() const { return a_.rare_.get(); }
  RareAttributes* mutable_rare() { return a_.rare_.mutable_get(); }
  Attributes a_;
  std::vector<ProvenanceEntry> provenance_;
  SourceLocation source_location_;
};

absl::string_view RandomDistributionToString(RandomDistribution d);  // "rng_uniform"
absl::string_view RandomAlgorithmToString(RandomAlgorithm a);        // "rng_three_fry"
absl::string_view FftTypeToString(FftType t);                        // "FFT"
absl::string_view TriangularSolveTransposeToString(TriangularSolveTranspose t);

}  // namespace systolic
