#include "core/hlo/hlo_parser.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <type_traits>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/hlo/element_convert.h"
#include "core/hlo/hlo_lexer.h"
#include "core/hlo/hlo_verifier.h"
#include "core/hlo/host_memory.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

using Location = HloLexer::Location;

// How a computation reference attaches to an instruction.
enum class CallRole {
  kToApply,
  kCalls,
  kCondition,
  kBody,
  kTrueComputation,
  kFalseComputation,
  kBranch,
  kSelect,
  kScatter,
  kCalledComputations,
};

struct PendingCall {
  CallRole role;
  std::string name;
  Location where;
};

struct PendingInstruction {
  HloInstruction* instruction;
  std::vector<PendingCall> calls;
};

// Attributes an opcode may carry beyond the generic ones, and those it must.
struct AttributeRules {
  std::vector<absl::string_view> allowed;
  std::vector<absl::string_view> required;
};

const std::vector<absl::string_view>& GenericAttributes() {
  static const auto* generic = new std::vector<absl::string_view>{
      "sharding", "metadata", "frontend_attributes", "backend_config", "control-predecessors",
      "statistics_viz", "origin", "result_accuracy", "raw_backend_config"};
  return *generic;
}

// Attributes this product keeps verbatim without interpreting them.
bool IsRawAttribute(absl::string_view key) {
  return key == "statistics_viz" || key == "origin" || key == "result_accuracy" ||
         key == "sparsity" || key == "padding_type" || key == "lhs_ragged_dims" ||
         key == "rhs_group_dims" || key == "lhs_batch_dims_ragged" || key == "mode";
}

AttributeRules ComputeRulesFor(HloOpcode op) {
  static const std::vector<absl::string_view> kCollective = {"channel_id", "replica_groups",
                                                             "constrain_layout"};
  static const std::vector<absl::string_view> kConv = {
      "window", "dim_labels", "feature_group_count", "batch_group_count", "operand_precision",
      "algorithm"};
  static const std::vector<absl::string_view> kDot = {
      "lhs_batch_dims",  "lhs_contracting_dims", "rhs_batch_dims", "rhs_contracting_dims",
      "operand_precision", "algorithm",          "sparsity",       "lhs_ragged_dims",
      "rhs_group_dims"};
  auto with = [](std::vector<absl::string_view> a, const std::vector<absl::string_view>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  switch (op) {
    case HloOpcode::kParameter:
      return {{"parameter_replication"}, {}};
    case HloOpcode::kGetTupleElement:
      return {{"index"}, {"index"}};
    case HloOpcode::kBroadcast:
    case HloOpcode::kTranspose:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
    case HloOpcode::kGetDimensionSize:
    case HloOpcode::kSetDimensionSize:
      return {{"dimensions"}, {"dimensions"}};
    case HloOpcode::kReduce:
      return {{"dimensions", "to_apply"}, {"dimensions", "to_apply"}};
    case HloOpcode::kMap:
      return {{"dimensions", "to_apply"}, {"to_apply"}};
    case HloOpcode::kSort:
      return {{"dimensions", "is_stable", "to_apply"}, {"dimensions", "to_apply"}};
    case HloOpcode::kIota:
      return {{"iota_dimension"}, {"iota_dimension"}};
    case HloOpcode::kSlice:
      return {{"slice"}, {"slice"}};
    case HloOpcode::kDynamicSlice:
      return {{"dynamic_slice_sizes"}, {"dynamic_slice_sizes"}};
    case HloOpcode::kPad:
      return {{"padding"}, {"padding"}};
    case HloOpcode::kCompare:
      return {{"direction", "type"}, {"direction"}};
    case HloOpcode::kConvolution:
      return {kConv, {"dim_labels"}};
    case HloOpcode::kDot:
    case HloOpcode::kRaggedDot:
    case HloOpcode::kScaledDot:
      return {kDot, {}};
    case HloOpcode::kGather:
      return {{"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
               "slice_sizes", "indices_are_sorted", "operand_batching_dims",
               "start_indices_batching_dims"},
              {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
               "slice_sizes"}};
    case HloOpcode::kScatter:
      return {{"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
               "index_vector_dim", "indices_are_sorted", "unique_indices", "input_batching_dims",
               "scatter_indices_batching_dims", "to_apply"},
              {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
               "index_vector_dim", "to_apply"}};
    case HloOpcode::kReduceWindow:
      return {{"window", "to_apply"}, {"window", "to_apply"}};
    case HloOpcode::kSelectAndScatter:
      return {{"window", "select", "scatter"}, {"window", "select", "scatter"}};
    case HloOpcode::kFusion:
      return {{"kind", "calls", "output_to_operand_aliasing"}, {"kind", "calls"}};
    case HloOpcode::kCall:
      return {{"to_apply", "is_composite"}, {"to_apply"}};
    case HloOpcode::kWhile:
      return {{"condition", "body"}, {"condition", "body"}};
    case HloOpcode::kConditional:
      return {{"true_computation", "false_computation", "branch_computations"}, {}};
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
      return {with({"use_global_device_ids", "to_apply"}, kCollective), {"to_apply"}};
    case HloOpcode::kReduceScatter:
      return {with({"use_global_device_ids", "to_apply", "dimensions"}, kCollective),
              {"to_apply", "dimensions"}};
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
      return {with({"use_global_device_ids", "dimensions"}, kCollective), {"dimensions"}};
    case HloOpcode::kAllToAll:
    case HloOpcode::kRaggedAllToAll:
    case HloOpcode::kCollectiveBroadcast:
      return {with({"dimensions"}, kCollective), {}};
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
      return {{"channel_id", "source_target_pairs", "slice_sizes"}, {"source_target_pairs"}};
    case HloOpcode::kSend:
    case HloOpcode::kRecv:
    case HloOpcode::kSendDone:
    case HloOpcode::kRecvDone:
      return {{"channel_id", "is_host_transfer"}, {}};
    case HloOpcode::kCustomCall:
      return {with({"custom_call_target", "custom_call_has_side_effect", "api_version",
                    "schedule", "output_to_operand_aliasing", "operand_layout_constraints",
                    "called_computations", "to_apply", "literal", "padding_type",
                    "lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims",
                    "rhs_contracting_dims"},
                   kConv),
              {"custom_call_target"}};
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      return {{"calls", "async_execution_thread", "async_group_id"}, {}};
    case HloOpcode::kCopyStart:
      return {{"cross_program_prefetch_index"}, {}};
    case HloOpcode::kRng:
      return {{"distribution"}, {"distribution"}};
    case HloOpcode::kRngBitGenerator:
      return {{"algorithm"}, {"algorithm"}};
    case HloOpcode::kRngGetAndUpdateState:
      return {{"delta"}, {"delta"}};
    case HloOpcode::kReducePrecision:
      return {{"exponent_bits", "mantissa_bits"}, {"exponent_bits", "mantissa_bits"}};
    case HloOpcode::kFft:
      return {{"fft_type", "fft_length"}, {"fft_type", "fft_length"}};
    case HloOpcode::kTriangularSolve:
      return {{"left_side", "lower", "unit_diagonal", "transpose_a"}, {}};
    case HloOpcode::kCholesky:
      return {{"lower"}, {}};
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
      return {{"epsilon", "feature_index"}, {"epsilon", "feature_index"}};
    case HloOpcode::kInfeed:
      return {{"infeed_config"}, {}};
    case HloOpcode::kOutfeed:
      return {{"outfeed_config", "outfeed_shape"}, {}};
    case HloOpcode::kTopK:
      return {{"k", "largest"}, {"k"}};
    case HloOpcode::kDomain:
      return {{"domain"}, {}};
    default:
      return {{}, {}};
  }
}

// The rules of every opcode, computed once.
const AttributeRules& RulesFor(HloOpcode op) {
  static const auto* table = [] {
    auto* t = new std::vector<AttributeRules>();
    for (int i = 0; i < kHloOpcodeCount; ++i) t->push_back(ComputeRulesFor(HloOpcode(i)));
    return t;
  }();
  return (*table)[int(op)];
}

template <typename T>
bool Contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

class HloParserImpl {
 public:
  HloParserImpl(absl::string_view text, const HloParseOptions& options)
      : lex_(text, options.filename, options.first_line), filename_(options.filename) {}

  absl::StatusOr<std::unique_ptr<HloModule>> ParseModule();
  absl::StatusOr<Shape> ParseShapeToEnd();
  absl::StatusOr<HloSharding> ParseShardingToEnd();
  absl::StatusOr<Literal> ParseLiteralToEnd(const Shape& shape);

 private:
  struct Scope {
    // A name maps to null from the moment its instruction starts being
    // parsed until the instruction is built.
    absl::flat_hash_map<absl::string_view, HloInstruction*> by_name;
    // The instruction defined as `name` so far, or null.
    HloInstruction* Find(absl::string_view name) const {
      auto it = by_name.find(name);
      return it == by_name.end() ? nullptr : it->second;
    }
  };
  // ParseInstruction's working lists (operands, attribute keys seen), kept
  // here so a large module does not allocate them per instruction.
  std::vector<HloInstruction*> operand_scratch_;
  std::vector<absl::string_view> attribute_scratch_;

  absl::Status ParseHeader(HloModule* module);
  absl::Status ParseHeaderAttribute(absl::string_view key, HloModule* module);
  absl::Status ParseComputation(HloModule* module, bool* is_entry, HloComputation** out);
  absl::Status ParseInstruction(HloComputation* computation, Scope* scope, bool* is_root,
                                HloInstruction** added);
  absl::Status ParseOperands(HloOpcode opcode, const Shape& shape, Scope* scope,
                             std::vector<HloInstruction*>* operands,
                             std::optional<Literal>* literal, int64_t* parameter_number);
  absl::Status ParseAttribute(absl::string_view key, const Location& key_location,
                              HloInstruction* instr, Scope* scope, PendingInstruction* pending);
  absl::Status ResolveCalls(HloModule* module);
  absl::Status InferOmittedShapes(const HloModule& module);

  absl::StatusOr<Shape> ParseShape();
  // Steps over an operand's shape without building it (the operand's own
  // shape is authoritative); checks only that it is well formed lexically.
  absl::Status SkipShape();
  absl::Status ParseLayout(Shape* shape);
  absl::StatusOr<Literal> ParseLiteral(const Shape& shape);
  absl::Status ParseArrayLiteral(Literal* literal, int64_t dim, int64_t* linear, bool* elided);
  absl::Status ParseLiteralElement(Literal* literal, int64_t linear);
  // Reads a decimal number ([-]digits[.digits][e[+-]digits]) at the cursor
  // into `value`; false, consuming nothing, for any other text.
  template <typename F>
  bool ReadDecimalInPlace(F* value);
  absl::StatusOr<HloSharding> ParseSharding();
  absl::StatusOr<HloSharding> ParseSingleSharding();
  absl::StatusOr<TileAssignment> ParseTileAssignment(bool allow_explicit);
  absl::StatusOr<OpMetadata> ParseMetadata();
  absl::StatusOr<OpMetadata> ParseMetadataBody();  // after the '{'
  absl::StatusOr<FrontendAttributes> ParseFrontendAttributes();
  absl::StatusOr<std::vector<int64_t>> ParseIntList(absl::string_view what);
  absl::StatusOr<std::vector<std::vector<int64_t>>> ParseIntListList(absl::string_view what);
  absl::StatusOr<Window> ParseWindow();
  absl::StatusOr<PaddingConfig> ParsePadding();
  absl::StatusOr<ShapeIndex> ParseShapeIndex();
  absl::StatusOr<std::vector<Precision>> ParsePrecisionList();
  absl::StatusOr<std::string> ParseBareWord(absl::string_view what);
  absl::StatusOr<ProgramShape> ParseEntryLayout();
  absl::StatusOr<std::string> ParseComputationName(absl::string_view what);
  // Skips an attribute value of unknown structure, returning its raw text.
  absl::StatusOr<std::string> ParseRawValue(absl::string_view what);

  HloLexer lex_;
  std::string filename_;
  std::vector<PendingInstruction> pending_;
  // Instructions written without a shape, in text order.
  std::vector<std::pair<HloInstruction*, Location>> shapeless_;
};

absl::StatusOr<std::unique_ptr<HloModule>> HloParserImpl::ParseModule() {
  auto module = std::make_unique<HloModule>("module");
  module->set_source_filename(filename_);
  if (lex_.LooksAtKeyword("HloModule")) {
    SYSTOLIC_RETURN_IF_ERROR(ParseHeader(module.get()));
  }
  HloComputation* entry = nullptr;
  HloComputation* last = nullptr;
  while (!lex_.AtEnd()) {
    bool is_entry = false;
    HloComputation* computation = nullptr;
    SYSTOLIC_RETURN_IF_ERROR(ParseComputation(module.get(), &is_entry, &computation));
    if (is_entry) {
      if (entry) return lex_.Error(lex_.location(), "more than one ENTRY computation");
      entry = computation;
    }
    last = computation;
  }
  if (!last) return lex_.ErrorHere("the module has no computation");
  module->set_entry_computation(entry ? entry : last);
  SYSTOLIC_RETURN_IF_ERROR(ResolveCalls(module.get()));
  SYSTOLIC_RETURN_IF_ERROR(InferOmittedShapes(*module));
  return module;
}

// Callees first, so a caller sees the finished shape of a callee's root.
absl::Status HloParserImpl::InferOmittedShapes(const HloModule& module) {
  if (shapeless_.empty()) return absl::OkStatus();
  absl::flat_hash_map<HloInstruction*, Location> omitted(shapeless_.begin(), shapeless_.end());
  for (HloComputation* computation : module.MakeComputationPostOrder()) {
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      auto it = omitted.find(instr);
      if (it == omitted.end()) continue;
      absl::StatusOr<Shape> shape = InferInstructionShape(*instr);
      if (!shape.ok()) {
        return lex_.Error(it->second, absl::StrCat("cannot infer the shape of %", instr->name(),
                                                   ": ", shape.status().message()));
      }
      *instr->mutable_shape() = *std::move(shape);
    }
  }
  return absl::OkStatus();
}

absl::Status HloParserImpl::ParseHeader(HloModule* module) {
  lex_.TryConsumeKeyword("HloModule");
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseName("a module name"));
  module->set_name(std::string(name));
  lex_.TryConsume(':');  // old text writes "HloModule name:"

  while (lex_.TryConsume(',')) {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view key, lex_.ParseName("a module attribute"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after ", key));
    absl::Status status = ParseHeaderAttribute(key, module);
    if (!status.ok()) return status;
    (void)where;
  }
  return absl::OkStatus();
}

absl::Status HloParserImpl::ParseHeaderAttribute(absl::string_view key, HloModule* module) {
  if (key == "is_scheduled") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool scheduled, lex_.ParseBool("is_scheduled"));
    module->set_is_scheduled(scheduled);
  } else if (key == "replica_count") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t n, lex_.ParseInt("replica_count"));
    if (n < 1) return lex_.Error(where, "replica_count must be at least 1");
    module->set_replica_count(n);
  } else if (key == "num_partitions") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t n, lex_.ParseInt("num_partitions"));
    if (n < 1) return lex_.Error(where, "num_partitions must be at least 1");
    module->set_num_partitions(n);
  } else if (key == "entry_computation_layout") {
    SYSTOLIC_ASSIGN_OR_RETURN(ProgramShape layout, ParseEntryLayout());
    module->set_entry_computation_layout(std::move(layout));
  } else if (key == "input_output_alias") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open input_output_alias"));
    if (!lex_.TryConsume('}')) {
      do {
        InputOutputAlias alias;
        SYSTOLIC_ASSIGN_OR_RETURN(alias.output_index, ParseShapeIndex());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after the output index"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "before the aliased parameter"));
        SYSTOLIC_ASSIGN_OR_RETURN(alias.parameter_number, lex_.ParseInt("parameter number"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(',', "after the parameter number"));
        SYSTOLIC_ASSIGN_OR_RETURN(alias.parameter_index, ParseShapeIndex());
        if (lex_.TryConsume(',')) {
          Location where = lex_.location();
          SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view kind, lex_.ParseName("alias kind"));
          if (kind == "must-alias") {
            alias.must_alias = true;
          } else if (kind != "may-alias") {
            return lex_.Error(where, absl::StrCat("unknown alias kind '", kind,
                                                  "' (expected may-alias or must-alias)"));
          }
        }
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the alias"));
        module->mutable_input_output_aliases()->push_back(std::move(alias));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close input_output_alias"));
    }
  } else if (key == "buffer_donor") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open buffer_donor"));
    if (!lex_.TryConsume('}')) {
      do {
        BufferDonor donor;
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "before a buffer donor"));
        SYSTOLIC_ASSIGN_OR_RETURN(donor.parameter_number, lex_.ParseInt("parameter number"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(',', "after the parameter number"));
        SYSTOLIC_ASSIGN_OR_RETURN(donor.parameter_index, ParseShapeIndex());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the buffer donor"));
        module->mutable_buffer_donors()->push_back(std::move(donor));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close buffer_donor"));
    }
  } else if (key == "frontend_attributes") {
    SYSTOLIC_ASSIGN_OR_RETURN(*module->mutable_frontend_attributes(), ParseFrontendAttributes());
  } else {
    // Other header attributes (sharding propagation flags, auto-SPMD options)
    // are kept verbatim.
    SYSTOLIC_ASSIGN_OR_RETURN(std::string raw, ParseRawValue(key));
    module->add_raw_attribute(std::string(key), std::move(raw));
  }
  return absl::OkStatus();
}

absl::StatusOr<ProgramShape> HloParserImpl::ParseEntryLayout() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open entry_computation_layout"));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "before the parameter layouts"));
  ProgramShape ps;
  if (!lex_.TryConsume(')')) {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ParseShape());
      ps.parameters.push_back(std::move(s));
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "after the parameter layouts"));
  }
  if (!lex_.TryConsume("->")) return lex_.ErrorHere("expected '->' in entry_computation_layout");
  SYSTOLIC_ASSIGN_OR_RETURN(ps.result, ParseShape());
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close entry_computation_layout"));
  return ps;
}

absl::Status HloParserImpl::ParseComputation(HloModule* module, bool* is_entry,
                                             HloComputation** out) {
  *is_entry = lex_.TryConsumeKeyword("ENTRY");
  Location name_location = lex_.location();
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseName("a computation name"));
  if (module->GetComputationWithName(name)) {
    return lex_.Error(name_location, absl::StrCat("computation %", name, " is defined twice"));
  }
  // Optional signature `(p: f32[2], q: s32[]) -> f32[2]`; the instructions
  // themselves define the shapes, so it is read and checked only for syntax.
  if (lex_.Peek() == '(') {
    lex_.TryConsume('(');
    if (!lex_.TryConsume(')')) {
      do {
        SYSTOLIC_RETURN_IF_ERROR(lex_.ParseName("a parameter name").status());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after a parameter name"));
        SYSTOLIC_RETURN_IF_ERROR(ParseShape().status());
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close the computation signature"));
    }
    if (!lex_.TryConsume("->")) return lex_.ErrorHere("expected '->' after the parameters");
    SYSTOLIC_RETURN_IF_ERROR(ParseShape().status());
  }
  auto owned = std::make_unique<HloComputation>(std::string(name));
  HloComputation* computation = module->AddEmbeddedComputation(std::move(owned));
  auto parse_thread = [&]() -> absl::Status {
    if (lex_.Peek() == ',' && lex_.PeekAt(1) != '\0') {
      lex_.TryConsume(',');
      SYSTOLIC_RETURN_IF_ERROR(lex_.ParseName("execution_thread").status());
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after execution_thread"));
      SYSTOLIC_ASSIGN_OR_RETURN(std::string thread, lex_.ParseString("execution_thread"));
      computation->set_execution_thread(std::move(thread));
    }
    return absl::OkStatus();
  };
  if (lex_.LooksAtKeyword("execution_thread") || lex_.Peek() == ',') {
    SYSTOLIC_RETURN_IF_ERROR(parse_thread());
  }
  Location open_brace = lex_.location();
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open computation %", name));
  Scope scope;
  HloInstruction* root = nullptr;
  HloInstruction* last = nullptr;
  while (lex_.Peek() != '}') {
    if (lex_.AtEnd()) {
      return lex_.Error(open_brace,
                        absl::StrCat("computation %", name, " is not closed by '}'"));
    }
    bool is_root = false;
    HloInstruction* added = nullptr;
    SYSTOLIC_RETURN_IF_ERROR(ParseInstruction(computation, &scope, &is_root, &added));
    last = added;
    if (is_root) {
      if (root) return lex_.ErrorHere(absl::StrCat("computation %", name, " has two ROOTs"));
      root = added;
    }
  }
  lex_.TryConsume('}');
  if (computation->instruction_count() == 0) {
    return lex_.Error(name_location, absl::StrCat("computation %", name, " is empty"));
  }
  computation->set_root_instruction(root ? root : last);
  // A missing parameter number (p0, p2 without p1) leaves a hole.
  for (int64_t i = 0; i < computation->num_parameters(); ++i) {
    if (computation->parameter_instruction(i) == nullptr) {
      return lex_.Error(name_location,
                        absl::StrCat("computation %", name, " has no parameter(", i, ")"));
    }
  }
  // `}, execution_thread="..."` after the body (XLA's placement).
  if (lex_.Peek() == ',' ) {
    SYSTOLIC_RETURN_IF_ERROR(parse_thread());
  }
  *out = computation;
  return absl::OkStatus();
}

bool LooksLikeShapeStart(HloLexer& lex) {
  char c = lex.Peek();
  if (c == '(') return true;
  absl::string_view id = lex.PeekIdentifier();
  if (id.empty()) return false;
  if (!primitive_util::StringToPrimitiveType(id).ok()) return false;
  // A type name is a shape only when followed by '['.
  return lex.PeekAt(id.size()) == '[';
}

absl::Status HloParserImpl::ParseInstruction(HloComputation* computation, Scope* scope,
                                             bool* is_root, HloInstruction** added) {
  Location start = lex_.location();
  *is_root = lex_.TryConsumeKeyword("ROOT");
  Location name_location = lex_.location();
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseName("an instruction name"));
  // The name is claimed now (one hash) and bound to the instruction once it
  // is built; until then it reads as undefined, so `%a = add(%a, ...)` is an
  // error, not a self-loop.
  auto [binding, fresh] = scope->by_name.try_emplace(name, nullptr);
  if (!fresh) {
    return lex_.Error(name_location,
                      absl::StrCat("instruction %", name, " is defined twice in computation %",
                                   computation->name()));
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after the instruction name"));
  // XLA text may leave the shape out (`ROOT r = add(x, y)`); it is inferred
  // once the whole module, and so every called computation, is known.
  // `f31[2]` is a shape with a bad element type, not an opcode.
  const bool shape_given =
      lex_.Peek() == '(' || lex_.PeekAt(lex_.PeekIdentifier().size()) == '[';
  Shape shape = Shape::MakeTuple({});
  if (shape_given) {
    SYSTOLIC_ASSIGN_OR_RETURN(shape, ParseShape());
  }
  Location opcode_location = lex_.location();
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view opcode_name, lex_.ParseName("an opcode"));
  std::optional<HloOpcode> opcode = StringToHloOpcode(opcode_name);
  if (!opcode) {
    return lex_.Error(opcode_location, absl::StrCat("unknown opcode '", opcode_name, "'"));
  }
  std::vector<HloInstruction*>& operands = operand_scratch_;
  operands.clear();
  std::optional<Literal> literal;
  int64_t parameter_number = -1;
  SYSTOLIC_RETURN_IF_ERROR(
      ParseOperands(*opcode, shape, scope, &operands, &literal, &parameter_number));
  int arity = HloOpcodeArity(*opcode);
  if (arity != kHloOpcodeVariadic && int64_t(operands.size()) != arity &&
      *opcode != HloOpcode::kParameter && *opcode != HloOpcode::kConstant) {
    return lex_.Error(opcode_location,
                      absl::StrCat(opcode_name, " takes ", arity, " operand",
                                   arity == 1 ? "" : "s", ", but %", name, " has ",
                                   operands.size()));
  }

  if (!shape_given && !ShapeCanBeInferred(*opcode)) {
    return lex_.Error(opcode_location,
                      absl::StrCat(opcode_name, " %", name,
                                   " needs a shape: it cannot be inferred from the operands"));
  }
  std::unique_ptr<HloInstruction> owned;
  if (*opcode == HloOpcode::kParameter) {
    owned = HloInstruction::CreateParameter(parameter_number, shape, std::string(name));
  } else if (*opcode == HloOpcode::kConstant) {
    owned = HloInstruction::CreateConstant(std::move(*literal));
    *owned->mutable_shape() = shape;  // keep the printed layout
    owned->SetName(std::string(name));
  } else {
    owned = HloInstruction::Create(*opcode, std::move(shape), operands);
    owned->SetName(std::string(name));
  }
  owned->set_source_location({start.line, start.column});
  HloInstruction* instr = owned.get();
  if (!shape_given) shapeless_.emplace_back(instr, opcode_location);

  PendingInstruction pending{instr, {}};
  std::vector<absl::string_view>& seen = attribute_scratch_;
  seen.clear();
  const AttributeRules& rules = RulesFor(*opcode);
  while (lex_.TryConsume(',')) {
    Location key_location = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view key, lex_.ParseName("an attribute name"));
    if (!Contains(rules.allowed, key) && !Contains(GenericAttributes(), key)) {
      return lex_.Error(key_location,
                        absl::StrCat("unexpected attribute '", key, "' for ", opcode_name));
    }
    if (Contains(seen, key)) {
      return lex_.Error(key_location, absl::StrCat("attribute '", key, "' is given twice"));
    }
    seen.push_back(key);
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after the attribute name"));
    SYSTOLIC_RETURN_IF_ERROR(ParseAttribute(key, key_location, instr, scope, &pending));
  }
  for (absl::string_view required : rules.required) {
    if (!Contains(seen, required)) {
      return lex_.Error(opcode_location, absl::StrCat(opcode_name, " %", name,
                                                      " is missing attribute '", required, "'"));
    }
  }
  // An explicit comparison type equal to the default says nothing more.
  if (*opcode == HloOpcode::kCompare && instr->explicit_comparison_type() &&
      !operands.empty() &&
      *instr->explicit_comparison_type() ==
          DefaultComparisonType(operands[0]->shape().element_type())) {
    instr->set_comparison_type(std::nullopt);
  }
  if (*opcode == HloOpcode::kConditional && pending.calls.empty()) {
    return lex_.Error(opcode_location,
                      absl::StrCat("conditional %", name,
                                   " needs true_computation/false_computation or "
                                   "branch_computations"));
  }

  if (*opcode == HloOpcode::kParameter) {
    if (parameter_number < int64_t(computation->num_parameters()) &&
        computation->parameter_instruction(parameter_number) != nullptr) {
      return lex_.Error(name_location, absl::StrCat("parameter(", parameter_number,
                                                    ") is defined twice in computation %",
                                                    computation->name()));
    }
    computation->AddParameter(std::move(owned));
  } else {
    computation->AddInstruction(std::move(owned));
  }
  binding->second = instr;  // nothing was added to the scope since the claim
  *added = instr;
  if (!pending.calls.empty()) pending_.push_back(std::move(pending));
  return absl::OkStatus();
}

absl::Status HloParserImpl::ParseOperands(HloOpcode opcode, const Shape& shape, Scope* scope,
                                          std::vector<HloInstruction*>* operands,
                                          std::optional<Literal>* literal,
                                          int64_t* parameter_number) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open the operand list"));
  if (opcode == HloOpcode::kParameter) {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(*parameter_number, lex_.ParseInt("the parameter number"));
    if (*parameter_number < 0 || *parameter_number > (int64_t{1} << 24)) {
      return lex_.Error(where, absl::StrCat("parameter number ", *parameter_number,
                                            " is out of range"));
    }
    return lex_.Expect(')', "after the parameter number");
  }
  if (opcode == HloOpcode::kConstant) {
    // Old text puts the shape inside: constant(f32[2] {1, 2}).
    if (LooksLikeShapeStart(lex_) && lex_.Peek() != '(') {
      SYSTOLIC_RETURN_IF_ERROR(ParseShape().status());
    }
    SYSTOLIC_ASSIGN_OR_RETURN(Literal value, ParseLiteral(shape));
    *literal = std::move(value);
    return lex_.Expect(')', "after the constant value");
  }
  if (lex_.TryConsume(')')) return absl::OkStatus();
  do {
    if (LooksLikeShapeStart(lex_)) SYSTOLIC_RETURN_IF_ERROR(SkipShape());
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view operand, lex_.ParseName("an operand name"));
    HloInstruction* defined = scope->Find(operand);
    if (defined == nullptr) {
      return lex_.Error(where, absl::StrCat("use of undefined instruction %", operand));
    }
    operands->push_back(defined);
  } while (lex_.TryConsume(','));
  return lex_.Expect(')', "to close the operand list");
}

absl::StatusOr<std::string> HloParserImpl::ParseComputationName(absl::string_view what) {
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseName(what));
  return std::string(name);
}

absl::StatusOr<std::string> HloParserImpl::ParseBareWord(absl::string_view what) {
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view word, lex_.ParseName(what));
  return std::string(word);
}

absl::Status HloParserImpl::ParseAttribute(absl::string_view key, const Location& key_location,
                                           HloInstruction* instr, Scope* scope,
                                           PendingInstruction* pending) {
  HloOpcode op = instr->opcode();
  auto call = [&](CallRole role) -> absl::Status {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string name, ParseComputationName("a computation name"));
    pending->calls.push_back({role, std::move(name), where});
    return absl::OkStatus();
  };
  auto call_list = [&](CallRole role) -> absl::Status {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open ", key));
    if (lex_.TryConsume('}')) return absl::OkStatus();
    do {
      SYSTOLIC_RETURN_IF_ERROR(call(role));
    } while (lex_.TryConsume(','));
    return lex_.Expect('}', "to close ", key);
  };
  auto int_attr = [&](absl::string_view what) { return lex_.ParseInt(what); };
  auto bool_attr = [&]() { return lex_.ParseBool(key); };

  if (key == "sharding") {
    SYSTOLIC_ASSIGN_OR_RETURN(HloSharding s, ParseSharding());
    instr->set_sharding(std::move(s));
  } else if (key == "metadata") {
    SYSTOLIC_ASSIGN_OR_RETURN(OpMetadata m, ParseMetadata());
    instr->set_metadata(std::move(m));
  } else if (key == "frontend_attributes") {
    SYSTOLIC_ASSIGN_OR_RETURN(*instr->mutable_frontend_attributes(), ParseFrontendAttributes());
  } else if (key == "backend_config" || key == "raw_backend_config") {
    if (lex_.Peek() == '{') {
      SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view raw, lex_.ParseBalancedBraces(key));
      instr->set_backend_config(std::string(raw));
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(std::string config, lex_.ParseString(key));
      instr->set_backend_config(std::move(config));
    }
  } else if (key == "control-predecessors") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open control-predecessors"));
    if (!lex_.TryConsume('}')) {
      do {
        Location where = lex_.location();
        SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view pred, lex_.ParseName("an instruction name"));
        HloInstruction* defined = scope->Find(pred);
        if (defined == nullptr) {
          return lex_.Error(where, absl::StrCat("control predecessor %", pred, " is undefined"));
        }
        defined->AddControlDependencyTo(instr);
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close control-predecessors"));
    }
  } else if (IsRawAttribute(key)) {
    SYSTOLIC_ASSIGN_OR_RETURN(std::string raw, ParseRawValue(key));
    instr->add_raw_attribute(std::string(key), std::move(raw));
  } else if (key == "dimensions") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseIntList("dimensions"));
    instr->set_dimensions(std::move(dims));
  } else if (key == "to_apply") {
    return call(CallRole::kToApply);
  } else if (key == "calls") {
    return call(CallRole::kCalls);
  } else if (key == "condition") {
    return call(CallRole::kCondition);
  } else if (key == "body") {
    return call(CallRole::kBody);
  } else if (key == "true_computation") {
    return call(CallRole::kTrueComputation);
  } else if (key == "false_computation") {
    return call(CallRole::kFalseComputation);
  } else if (key == "branch_computations") {
    return call_list(CallRole::kBranch);
  } else if (key == "called_computations") {
    return call_list(CallRole::kCalledComputations);
  } else if (key == "select") {
    return call(CallRole::kSelect);
  } else if (key == "scatter") {
    return call(CallRole::kScatter);
  } else if (key == "index") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t i, int_attr("index"));
    instr->set_tuple_index(i);
  } else if (key == "iota_dimension") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, int_attr("iota_dimension"));
    instr->set_dimensions({d});
  } else if (key == "slice") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open slice"));
    std::vector<int64_t> starts, limits, strides;
    if (!lex_.TryConsume('}')) {
      do {
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('[', "to open a slice range"));
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t start, int_attr("slice start"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after the slice start"));
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t limit, int_attr("slice limit"));
        int64_t stride = 1;
        if (lex_.TryConsume(':')) {
          SYSTOLIC_ASSIGN_OR_RETURN(stride, int_attr("slice stride"));
        }
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close a slice range"));
        starts.push_back(start);
        limits.push_back(limit);
        strides.push_back(stride);
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close slice"));
    }
    instr->set_slice(std::move(starts), std::move(limits), std::move(strides));
  } else if (key == "dynamic_slice_sizes" || key == "slice_sizes") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ParseIntList(key));
    instr->set_slice_sizes(std::move(sizes));
  } else if (key == "padding") {
    SYSTOLIC_ASSIGN_OR_RETURN(PaddingConfig p, ParsePadding());
    instr->set_padding_config(std::move(p));
  } else if (key == "direction") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string d, ParseBareWord("a comparison direction"));
    auto direction = StringToComparisonDirection(d);
    if (!direction) {
      return lex_.Error(where, absl::StrCat("unknown comparison direction '", d,
                                            "' (expected EQ, NE, GE, GT, LE or LT)"));
    }
    instr->set_comparison_direction(*direction);
  } else if (key == "type") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string t, ParseBareWord("a comparison type"));
    auto type = StringToComparisonType(t);
    if (!type) {
      return lex_.Error(where, absl::StrCat("unknown comparison type '", t,
                                            "' (expected FLOAT, TOTALORDER, SIGNED or UNSIGNED)"));
    }
    instr->set_comparison_type(*type);
  } else if (key == "window") {
    SYSTOLIC_ASSIGN_OR_RETURN(Window w, ParseWindow());
    instr->set_window(std::move(w));
  } else if (key == "dim_labels") {
    Location where = lex_.location();
    absl::string_view labels = lex_.ScanWhile([](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '>' ||
             c == '?';
    });
    auto dnums = ConvolutionDimensionNumbers::FromDimLabels(labels);
    if (!dnums.ok()) return lex_.Error(where, dnums.status().message());
    instr->set_convolution_dimension_numbers(*std::move(dnums));
  } else if (key == "feature_group_count") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t n, int_attr(key));
    instr->set_feature_group_count(n);
  } else if (key == "batch_group_count") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t n, int_attr(key));
    instr->set_batch_group_count(n);
  } else if (key == "operand_precision") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Precision> precision, ParsePrecisionList());
    // All-default precision is the same as none (and prints as none).
    bool all_default = std::all_of(precision.begin(), precision.end(),
                                   [](Precision p) { return p == Precision::kDefault; });
    if (!all_default) instr->mutable_precision_config()->operand_precision = std::move(precision);
  } else if (key == "algorithm") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string a, ParseBareWord("an algorithm"));
    if (op == HloOpcode::kRngBitGenerator) {
      if (a == "rng_three_fry") {
        instr->set_random_algorithm(RandomAlgorithm::kThreeFry);
      } else if (a == "rng_philox") {
        instr->set_random_algorithm(RandomAlgorithm::kPhilox);
      } else if (a == "rng_default") {
        instr->set_random_algorithm(RandomAlgorithm::kDefault);
      } else {
        return lex_.Error(where, absl::StrCat("unknown rng algorithm '", a, "'"));
      }
    } else {
      instr->mutable_precision_config()->algorithm = a;
    }
  } else if (key == "lhs_batch_dims" || key == "lhs_contracting_dims" ||
             key == "rhs_batch_dims" || key == "rhs_contracting_dims") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseIntList(key));
    DotDimensionNumbers d = instr->dot_dimension_numbers();
    if (key == "lhs_batch_dims") d.lhs_batch_dimensions = std::move(dims);
    if (key == "lhs_contracting_dims") d.lhs_contracting_dimensions = std::move(dims);
    if (key == "rhs_batch_dims") d.rhs_batch_dimensions = std::move(dims);
    if (key == "rhs_contracting_dims") d.rhs_contracting_dimensions = std::move(dims);
    instr->set_dot_dimension_numbers(std::move(d));
  } else if (key == "offset_dims" || key == "collapsed_slice_dims" || key == "start_index_map" ||
             key == "operand_batching_dims" || key == "start_indices_batching_dims") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseIntList(key));
    GatherDimensionNumbers g = instr->gather_dimension_numbers();
    if (key == "offset_dims") g.offset_dims = std::move(dims);
    if (key == "collapsed_slice_dims") g.collapsed_slice_dims = std::move(dims);
    if (key == "start_index_map") g.start_index_map = std::move(dims);
    if (key == "operand_batching_dims") g.operand_batching_dims = std::move(dims);
    if (key == "start_indices_batching_dims") g.start_indices_batching_dims = std::move(dims);
    instr->set_gather_dimension_numbers(std::move(g));
  } else if (key == "update_window_dims" || key == "inserted_window_dims" ||
             key == "scatter_dims_to_operand_dims" || key == "input_batching_dims" ||
             key == "scatter_indices_batching_dims") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ParseIntList(key));
    ScatterDimensionNumbers s = instr->scatter_dimension_numbers();
    if (key == "update_window_dims") s.update_window_dims = std::move(dims);
    if (key == "inserted_window_dims") s.inserted_window_dims = std::move(dims);
    if (key == "scatter_dims_to_operand_dims") s.scatter_dims_to_operand_dims = std::move(dims);
    if (key == "input_batching_dims") s.input_batching_dims = std::move(dims);
    if (key == "scatter_indices_batching_dims") s.scatter_indices_batching_dims = std::move(dims);
    instr->set_scatter_dimension_numbers(std::move(s));
  } else if (key == "index_vector_dim") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, int_attr(key));
    if (op == HloOpcode::kGather) {
      GatherDimensionNumbers g = instr->gather_dimension_numbers();
      g.index_vector_dim = d;
      instr->set_gather_dimension_numbers(std::move(g));
    } else {
      ScatterDimensionNumbers s = instr->scatter_dimension_numbers();
      s.index_vector_dim = d;
      instr->set_scatter_dimension_numbers(std::move(s));
    }
  } else if (key == "indices_are_sorted") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_indices_are_sorted(b);
  } else if (key == "unique_indices") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_unique_indices(b);
  } else if (key == "kind") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string k, ParseBareWord("a fusion kind"));
    auto kind = StringToFusionKind(k);
    if (!kind) {
      return lex_.Error(where, absl::StrCat("unknown fusion kind '", k,
                                            "' (expected kLoop, kInput, kOutput or kCustom)"));
    }
    instr->set_fusion_kind(*kind);
  } else if (key == "channel_id") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t id, int_attr(key));
    instr->set_channel_id(id);
  } else if (key == "replica_groups") {
    if (lex_.Peek() == '[') {
      Location where = lex_.location();
      SYSTOLIC_ASSIGN_OR_RETURN(TileAssignment iota, ParseTileAssignment(false));
      if (iota.dimensions().size() != 2) {
        return lex_.Error(where, "iota replica groups must be [groups,size]<=[...]");
      }
      instr->set_device_list(CollectiveDeviceList(std::move(iota)));
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(auto groups, ParseIntListList(key));
      instr->set_device_list(CollectiveDeviceList(std::move(groups)));
    }
  } else if (key == "constrain_layout") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_constrain_layout(b);
  } else if (key == "use_global_device_ids") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_use_global_device_ids(b);
  } else if (key == "source_target_pairs") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(auto lists, ParseIntListList(key));
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (const auto& p : lists) {
      if (p.size() != 2) return lex_.Error(where, "each source_target_pair needs two ids");
      pairs.push_back({p[0], p[1]});
    }
    instr->set_source_target_pairs(std::move(pairs));
  } else if (key == "is_host_transfer") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_is_host_transfer(b);
  } else if (key == "custom_call_target") {
    SYSTOLIC_ASSIGN_OR_RETURN(instr->mutable_custom_call()->target, lex_.ParseString(key));
  } else if (key == "custom_call_has_side_effect") {
    SYSTOLIC_ASSIGN_OR_RETURN(instr->mutable_custom_call()->has_side_effect, bool_attr());
  } else if (key == "api_version") {
    SYSTOLIC_ASSIGN_OR_RETURN(instr->mutable_custom_call()->api_version, ParseBareWord(key));
  } else if (key == "schedule") {
    SYSTOLIC_ASSIGN_OR_RETURN(instr->mutable_custom_call()->schedule, ParseBareWord(key));
  } else if (key == "output_to_operand_aliasing") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open output_to_operand_aliasing"));
    auto& aliasing = instr->mutable_custom_call()->output_to_operand_aliasing;
    if (!lex_.TryConsume('}')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(ShapeIndex out_index, ParseShapeIndex());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(':', "after the output index"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "before the operand"));
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t operand, int_attr("operand number"));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(',', "after the operand number"));
        SYSTOLIC_ASSIGN_OR_RETURN(ShapeIndex operand_index, ParseShapeIndex());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "after the operand index"));
        aliasing.push_back({std::move(out_index), {operand, std::move(operand_index)}});
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close output_to_operand_aliasing"));
    }
  } else if (key == "operand_layout_constraints") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open operand_layout_constraints"));
    CustomCallOptions* cc = instr->mutable_custom_call();
    cc->has_layout_constraints = true;
    if (!lex_.TryConsume('}')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ParseShape());
        cc->operand_layout_constraints.push_back(std::move(s));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close operand_layout_constraints"));
    }
  } else if (key == "literal") {
    // Custom-call literals carry their own shape: literal=f32[2] {1, 2} or a scalar.
    Shape literal_shape;
    if (LooksLikeShapeStart(lex_)) {
      SYSTOLIC_ASSIGN_OR_RETURN(literal_shape, ParseShape());
    } else {
      literal_shape = Shape(F32, {});
    }
    SYSTOLIC_ASSIGN_OR_RETURN(Literal l, ParseLiteral(literal_shape));
    instr->set_literal(std::move(l));
  } else if (key == "async_execution_thread") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::string t, lex_.ParseString(key));
    instr->set_async_execution_thread(std::move(t));
  } else if (key == "async_group_id") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t id, int_attr(key));
    instr->set_async_group_id(id);
  } else if (key == "cross_program_prefetch_index") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t i, int_attr(key));
    instr->set_cross_program_prefetch_index(i);
  } else if (key == "distribution") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string d, ParseBareWord(key));
    if (d == "rng_uniform") {
      instr->set_random_distribution(RandomDistribution::kUniform);
    } else if (d == "rng_normal") {
      instr->set_random_distribution(RandomDistribution::kNormal);
    } else {
      return lex_.Error(where, absl::StrCat("unknown distribution '", d, "'"));
    }
  } else if (key == "delta") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, int_attr(key));
    instr->set_delta(d);
  } else if (key == "exponent_bits" || key == "mantissa_bits") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t bits, int_attr(key));
    if (key == "exponent_bits") {
      instr->set_reduce_precision(bits, instr->mantissa_bits());
    } else {
      instr->set_reduce_precision(instr->exponent_bits(), bits);
    }
  } else if (key == "fft_type") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string t, ParseBareWord(key));
    if (t == "FFT") {
      instr->set_fft_type(FftType::kFft);
    } else if (t == "IFFT") {
      instr->set_fft_type(FftType::kIfft);
    } else if (t == "RFFT") {
      instr->set_fft_type(FftType::kRfft);
    } else if (t == "IRFFT") {
      instr->set_fft_type(FftType::kIrfft);
    } else {
      return lex_.Error(where, absl::StrCat("unknown fft_type '", t, "'"));
    }
  } else if (key == "fft_length") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> l, ParseIntList(key));
    instr->set_fft_length(std::move(l));
  } else if (key == "left_side") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_left_side(b);
  } else if (key == "lower") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_lower(b);
  } else if (key == "unit_diagonal") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_unit_diagonal(b);
  } else if (key == "transpose_a") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(std::string t, ParseBareWord(key));
    if (t == "NO_TRANSPOSE") {
      instr->set_transpose_a(TriangularSolveTranspose::kNoTranspose);
    } else if (t == "TRANSPOSE") {
      instr->set_transpose_a(TriangularSolveTranspose::kTranspose);
    } else if (t == "ADJOINT") {
      instr->set_transpose_a(TriangularSolveTranspose::kAdjoint);
    } else {
      return lex_.Error(where, absl::StrCat("unknown transpose_a '", t, "'"));
    }
  } else if (key == "epsilon") {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view text, lex_.ParseNumberText(key));
    float value;
    if (!absl::SimpleAtof(text, &value)) {
      return lex_.Error(where, absl::StrCat("bad epsilon '", text, "'"));
    }
    instr->set_epsilon(value);
  } else if (key == "feature_index") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t i, int_attr(key));
    instr->set_feature_index(i);
  } else if (key == "is_stable") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_is_stable(b);
  } else if (key == "k") {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t k, int_attr(key));
    instr->set_k(k);
  } else if (key == "largest") {
    SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
    instr->set_largest(b);
  } else if (key == "infeed_config" || key == "outfeed_config") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::string c, lex_.ParseString(key));
    instr->set_feed_config(std::move(c));
  } else if (key == "outfeed_shape") {
    SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ParseShape());
    instr->set_outfeed_shape(std::move(s));
  } else if (key == "parameter_replication") {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open parameter_replication"));
    std::vector<bool> replication;
    if (!lex_.TryConsume('}')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(bool b, bool_attr());
        replication.push_back(b);
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close parameter_replication"));
    }
    instr->set_parameter_replication(std::move(replication));
  } else if (key == "domain") {
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view raw, lex_.ParseBalancedBraces(key));
    instr->set_domain_text(std::string(raw));
  } else if (key == "is_composite") {
    SYSTOLIC_ASSIGN_OR_RETURN(std::string raw, ParseRawValue(key));
    instr->add_raw_attribute(std::string(key), std::move(raw));
  } else {
    return lex_.Error(key_location, absl::StrCat("unknown attribute '", key, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> HloParserImpl::ParseRawValue(absl::string_view what) {
  char c = lex_.Peek();
  if (c == '{') {
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view raw, lex_.ParseBalancedBraces(what));
    return std::string(raw);
  }
  if (c == '"') {
    SYSTOLIC_ASSIGN_OR_RETURN(std::string s, lex_.ParseString(what));
    return QuoteString(s);
  }
  absl::string_view word = lex_.ScanWhile([](char ch) {
    return HloLexer::IsNameChar(ch) || ch == '<' || ch == '=' || ch == '[' || ch == ']' ||
           ch == ':';
  });
  if (word.empty()) return lex_.ErrorHere(absl::StrCat("expected a value for ", what));
  return std::string(word);
}

absl::Status HloParserImpl::ResolveCalls(HloModule* module) {
  for (PendingInstruction& p : pending_) {
    HloInstruction* instr = p.instruction;
    // Called computations are stored in a fixed order per opcode.
    std::vector<CallRole> order;
    switch (instr->opcode()) {
      case HloOpcode::kWhile:
        order = {CallRole::kCondition, CallRole::kBody};
        break;
      case HloOpcode::kConditional:
        order = {CallRole::kTrueComputation, CallRole::kFalseComputation, CallRole::kBranch};
        break;
      case HloOpcode::kSelectAndScatter:
        order = {CallRole::kSelect, CallRole::kScatter};
        break;
      default:
        order = {CallRole::kToApply, CallRole::kCalls, CallRole::kCalledComputations};
    }
    bool has_true = false, has_false = false, has_branches = false;
    for (const PendingCall& c : p.calls) {
      has_true |= c.role == CallRole::kTrueComputation;
      has_false |= c.role == CallRole::kFalseComputation;
      has_branches |= c.role == CallRole::kBranch;
    }
    if (instr->opcode() == HloOpcode::kConditional &&
        ((has_true != has_false) || (has_true && has_branches))) {
      return lex_.Error(p.calls.front().where,
                        absl::StrCat("conditional %", instr->name(),
                                     " needs both true_computation and false_computation, or "
                                     "branch_computations alone"));
    }
    for (CallRole role : order) {
      for (const PendingCall& c : p.calls) {
        if (c.role != role) continue;
        HloComputation* callee = module->GetComputationWithName(c.name);
        if (!callee) {
          return lex_.Error(c.where, absl::StrCat("computation %", c.name, " is not defined"));
        }
        if (instr->opcode() == HloOpcode::kFusion) {
          if (callee->IsFusionComputation()) {
            return lex_.Error(c.where, absl::StrCat("computation %", c.name,
                                                    " is already the body of fusion %",
                                                    callee->FusionInstruction()->name()));
          }
          callee->SetFusionInstruction(instr);
        }
        instr->AppendCalledComputation(callee);
      }
    }
  }
  return absl::OkStatus();
}

// --- Shapes -------------------------------------------------------------------

absl::StatusOr<Shape> HloParserImpl::ParseShape() {
  if (lex_.TryConsume('(')) {
    std::vector<Shape> elements;
    if (!lex_.TryConsume(')')) {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ParseShape());
        elements.push_back(std::move(s));
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close a tuple shape"));
    }
    return Shape::MakeTuple(std::move(elements));
  }
  Location where = lex_.location();
  absl::string_view type_name = lex_.PeekIdentifier();
  if (type_name.empty()) return lex_.ErrorHere("expected a shape");
  auto type = primitive_util::StringToPrimitiveType(type_name);
  if (!type.ok()) {
    return lex_.Error(where, absl::StrCat("unknown element type '", type_name, "'"));
  }
  lex_.ParseIdentifier("a type").IgnoreError();
  if (*type == TOKEN || *type == OPAQUE_TYPE) {
    if (lex_.TryConsume('[')) SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "after token["));
    return *type == TOKEN ? Shape::MakeToken() : Shape::MakeOpaque();
  }
  if (*type == TUPLE) return lex_.Error(where, "'tuple' is not an element type; write (a, b)");
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('[', "after the element type"));
  // Dimensions are gathered first so the shape allocates them once.
  absl::InlinedVector<int64_t, 8> sizes;
  absl::InlinedVector<int64_t, 2> dynamic_dims;
  if (!lex_.TryConsume(']')) {
    do {
      Location dim_where = lex_.location();
      if (lex_.TryConsume('?')) {
        dynamic_dims.push_back(int64_t(sizes.size()));
        sizes.push_back(Shape::kUnboundedSize);
        continue;
      }
      if (lex_.TryConsume("<=")) dynamic_dims.push_back(int64_t(sizes.size()));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t size, lex_.ParseInt("a dimension size"));
      if (size < 0) {
        return lex_.Error(dim_where, absl::StrCat("dimension size ", size, " is negative"));
      }
      sizes.push_back(size);
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close the dimensions"));
  }
  Shape shape(*type, sizes);
  for (int64_t d : dynamic_dims) shape.set_dynamic_dimension(d, true);
  if (shape.rank() > 64) return lex_.Error(where, "shape rank is larger than 64");
  // Guard against element counts that overflow (the text may be hostile).
  int64_t elements = 1;
  for (int64_t d : shape.dimensions()) {
    if (d == Shape::kUnboundedSize) continue;
    if (d != 0 && elements > (int64_t{1} << 50) / d) {
      return lex_.Error(where, absl::StrCat("shape ", shape.ToString(), " has too many elements"));
    }
    elements *= d;
  }
  // A '{' starts a layout only if a layout can follow ("{1,0", "{:T", "{}");
  // otherwise it opens the body after a computation signature.
  if (lex_.Peek() == '{') {
    char next = lex_.PeekAt(1);
    size_t skip = 1;
    while (next == ' ' || next == '\t') next = lex_.PeekAt(++skip);
    if (std::isdigit(static_cast<unsigned char>(next)) || next == ':' || next == '}') {
      SYSTOLIC_RETURN_IF_ERROR(ParseLayout(&shape));
    }
  }
  return shape;
}

absl::Status HloParserImpl::SkipShape() {
  if (lex_.TryConsume('(')) {
    if (lex_.TryConsume(')')) return absl::OkStatus();
    do {
      SYSTOLIC_RETURN_IF_ERROR(SkipShape());
    } while (lex_.TryConsume(','));
    return lex_.Expect(')', "to close a tuple shape");
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.ParseIdentifier("a shape").status());
  if (!lex_.TryConsume('[')) return absl::OkStatus();
  lex_.ScanWhile([](char c) { return c != ']' && c != '\n' && c != ')'; });
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close the dimensions"));
  if (lex_.Peek() == '{') {
    char next = lex_.PeekAt(1);
    if (std::isdigit(static_cast<unsigned char>(next)) || next == ':' || next == '}') {
      lex_.ScanWhile([](char c) { return c != '}' && c != '\n'; });
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close the layout"));
    }
  }
  return absl::OkStatus();
}

absl::Status HloParserImpl::ParseLayout(Shape* shape) {
  Location where = lex_.location();
  lex_.TryConsume('{');
  Layout layout;
  std::vector<int64_t>& m2m = *layout.mutable_minor_to_major();
  m2m.reserve(size_t(shape->rank()));
  if (lex_.Peek() != ':' && lex_.Peek() != '}') {
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, lex_.ParseInt("a layout dimension"));
      m2m.push_back(d);
    } while (lex_.TryConsume(','));
  }
  if (lex_.TryConsume(':')) {
    while (lex_.Peek() != '}' && !lex_.AtEnd()) {
      Location item = lex_.location();
      if (lex_.TryConsume('D')) {
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "after D"));
        do {
          absl::string_view level = lex_.ScanWhile(
              [](char c) { return std::isupper(static_cast<unsigned char>(c)) || c == '+' || c == '~'; });
          if (level.empty()) return lex_.ErrorHere("expected a dimension level type (D, C, S, H)");
          layout.mutable_dim_level_types()->push_back(std::string(level));
        } while (lex_.TryConsume(','));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close D(...)"));
        continue;
      }
      if (lex_.TryConsume('T')) {
        while (lex_.TryConsume('(')) {
          Tile tile;
          if (!lex_.TryConsume(')')) {
            do {
              if (lex_.TryConsume('*')) {
                tile.dimensions.push_back(Tile::kCombineDimension);
              } else {
                SYSTOLIC_ASSIGN_OR_RETURN(int64_t t, lex_.ParseInt("a tile size"));
                tile.dimensions.push_back(t);
              }
            } while (lex_.TryConsume(','));
            SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close a tile"));
          }
          layout.mutable_tiles()->push_back(std::move(tile));
        }
        continue;
      }
      auto paren_int = [&](absl::string_view what) -> absl::StatusOr<int64_t> {
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "after ", what));
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t v, lex_.ParseInt(what));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "after ", what));
        return v;
      };
      auto paren_type = [&](absl::string_view what) -> absl::StatusOr<PrimitiveType> {
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "after ", what));
        Location type_where = lex_.location();
        SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseIdentifier(what));
        auto t = primitive_util::StringToPrimitiveType(std::string(name));
        if (!t.ok()) return lex_.Error(type_where, t.status().message());
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "after ", what));
        return *t;
      };
      if (lex_.TryConsume("SC")) {
        return lex_.Error(item, "split configs (SC) in layouts are not supported");
      } else if (lex_.TryConsume('S')) {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t s, paren_int("memory space S"));
        layout.set_memory_space(s);
      } else if (lex_.TryConsume('E')) {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t e, paren_int("element size E"));
        layout.set_element_size_in_bits(e);
      } else if (lex_.TryConsume('L')) {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t l, paren_int("tail padding L"));
        layout.set_tail_padding_alignment_in_elements(l);
      } else if (lex_.TryConsume('M')) {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t m, paren_int("dynamic shape prefix M"));
        layout.set_dynamic_shape_metadata_prefix_bytes(m);
      } else if (lex_.TryConsume('#')) {
        SYSTOLIC_ASSIGN_OR_RETURN(PrimitiveType t, paren_type("index type #"));
        layout.set_index_primitive_type(t);
      } else if (lex_.TryConsume('*')) {
        SYSTOLIC_ASSIGN_OR_RETURN(PrimitiveType t, paren_type("pointer type *"));
        layout.set_pointer_primitive_type(t);
      } else {
        return lex_.Error(item, "unknown layout attribute");
      }
    }
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close the layout"));
  if (!m2m.empty() && int64_t(m2m.size()) != shape->rank()) {
    return lex_.Error(where, absl::StrCat("layout has ", m2m.size(), " dimensions but the shape ",
                                          shape->ToString(), " has rank ", shape->rank()));
  }
  for (size_t i = 0; i < m2m.size(); ++i) {
    const int64_t d = m2m[i];
    if (d < 0 || d >= shape->rank() || std::find(m2m.begin(), m2m.begin() + i, d) != m2m.begin() + i) {
      return lex_.Error(where, absl::StrCat("layout {", absl::StrJoin(m2m, ","),
                                            "} is not a permutation of the shape's dimensions"));
    }
  }
  if (m2m.empty() && shape->rank() > 0) m2m = Layout::Descending(shape->rank()).minor_to_major();
  shape->set_layout(std::move(layout));
  return absl::OkStatus();
}

// --- Literals -----------------------------------------------------------------

namespace {

// The value of a number's text as the lexer scans it ("-1.5e3", "+2",
// "-inf", "nan", "0x1p3"); false when the text is not all one number.
// std::from_chars: no locale, no copy, correctly rounded to F once.
template <typename F>
bool ParseFloatText(absl::string_view text, F* value) {
  absl::string_view body = text;
  const bool negative = !body.empty() && body[0] == '-';
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
  F v;
  if (body == "nan") {
    v = std::numeric_limits<F>::quiet_NaN();
  } else if (body == "inf") {
    v = std::numeric_limits<F>::infinity();
  } else {
    const char* end = body.data() + body.size();
    std::from_chars_result r{};
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
      r = std::from_chars(body.data() + 2, end, v, std::chars_format::hex);
    } else {
      r = std::from_chars(body.data(), end, v);
    }
    if (r.ec == std::errc::result_out_of_range) {
      // Too large: infinity; too small: zero (what strtod gives).
      std::string s(body);
      v = std::is_same_v<F, float> ? F(std::strtof(s.c_str(), nullptr))
                                   : F(std::strtod(s.c_str(), nullptr));
    } else if (r.ec != std::errc() || r.ptr != end) {
      return false;
    }
  }
  *value = negative ? -v : v;
  return true;
}

}  // namespace


absl::StatusOr<Literal> HloParserImpl::ParseLiteral(const Shape& shape) {
  if (shape.IsTuple()) {
    // Tuple literals: ( a, b ), possibly with element shapes in old text.
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open a tuple literal"));
    std::vector<Literal> elements;
    for (int64_t i = 0; i < shape.tuple_shapes_size(); ++i) {
      if (i > 0) SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(',', "between tuple literal elements"));
      if (LooksLikeShapeStart(lex_) && lex_.Peek() != '(') {
        SYSTOLIC_RETURN_IF_ERROR(ParseShape().status());
      }
      SYSTOLIC_ASSIGN_OR_RETURN(Literal e, ParseLiteral(shape.tuple_shapes(i)));
      elements.push_back(std::move(e));
    }
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close a tuple literal"));
    return Literal::MakeTuple(std::move(elements));
  }
  if (!shape.IsArray()) {
    if (shape.IsToken()) return Literal(shape);
    return lex_.ErrorHere(absl::StrCat("cannot write a constant of shape ", shape.ToString()));
  }
  // A constant holds every element: each dimension needs a size (a bounded
  // dynamic one is held at its bound).
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.dimensions(d) < 0) {
      return lex_.ErrorHere(absl::StrCat("a constant needs a static shape, but dimension ", d, " of ",
                                         shape.ToString(), " has no size"));
    }
  }
  Shape static_shape(shape.element_type(), shape.dimensions());
  // A constant is held whole (an elided one as zeros): one larger than the
  // host may use is an error here, not an allocation that fails.
  if (absl::Status fits = CheckValueFitsHost(ShapeBytes(static_shape),
                                             absl::StrCat("a constant of ", shape.ToString()));
      !fits.ok()) {
    return lex_.ErrorHere(fits.message());
  }
  Literal literal(static_shape);
  if (shape.rank() == 0) {
    SYSTOLIC_RETURN_IF_ERROR(ParseLiteralElement(&literal, 0));
    return literal;
  }
  int64_t linear = 0;
  bool elided = false;
  Location where = lex_.location();
  SYSTOLIC_RETURN_IF_ERROR(ParseArrayLiteral(&literal, 0, &linear, &elided));
  if (!elided && linear != literal.element_count()) {
    return lex_.Error(where, absl::StrCat("constant has ", linear, " elements but its shape ",
                                          shape.ToString(), " needs ", literal.element_count()));
  }
  return literal;
}

absl::Status HloParserImpl::ParseArrayLiteral(Literal* literal, int64_t dim, int64_t* linear,
                                              bool* elided) {
  const Shape& shape = literal->shape();
  Location where = lex_.location();
  // XLA elides large constants as {...}; the values are unknown (zeros).
  if (lex_.TryConsume("{...}")) {
    *elided = true;
    return absl::OkStatus();
  }
  if (dim == shape.rank()) return ParseLiteralElement(literal, (*linear)++);
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open a dimension of the constant"));
  float* f32_values =
      shape.element_type() == F32 ? static_cast<float*>(literal->untyped_data()) : nullptr;
  int64_t count = 0;
  if (lex_.Peek() != '}') {
    do {
      if (count >= shape.dimensions(dim)) {
        return lex_.Error(where, absl::StrCat("constant has more than ", shape.dimensions(dim),
                                              " elements in dimension ", dim, " of ",
                                              shape.ToString()));
      }
      if (dim + 1 == shape.rank()) {
        // The common element of a large constant, an f32 decimal, read in
        // place; anything else through ParseLiteralElement.
        if (f32_values == nullptr || !ReadDecimalInPlace(&f32_values[*linear])) {
          SYSTOLIC_RETURN_IF_ERROR(ParseLiteralElement(literal, *linear));
        }
        ++*linear;
      } else {
        SYSTOLIC_RETURN_IF_ERROR(ParseArrayLiteral(literal, dim + 1, linear, elided));
      }
      ++count;
    } while (lex_.TryConsume(','));
  }
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close a dimension of the constant"));
  if (count != shape.dimensions(dim) && !*elided) {
    return lex_.Error(where, absl::StrCat("constant has ", count, " elements in dimension ", dim,
                                          " but ", shape.ToString(), " needs ",
                                          shape.dimensions(dim)));
  }
  return absl::OkStatus();
}

template <typename F>
bool HloParserImpl::ReadDecimalInPlace(F* value) {
  const absl::string_view rest = lex_.Remaining();
  const char* begin = rest.data();
  const char* end = begin + rest.size();
  const char* digits = begin != end && *begin == '-' ? begin + 1 : begin;
  if (digits == end || !((*digits >= '0' && *digits <= '9') || *digits == '.')) return false;
  F v;
  const std::from_chars_result r = std::from_chars(begin, end, v);
  // What follows must end the number ("0x1F" and "1.5.2" are not decimals).
  if (r.ec != std::errc() || (r.ptr != end && HloLexer::IsNameChar(*r.ptr))) return false;
  lex_.Advance(size_t(r.ptr - begin));
  *value = v;
  return true;
}

absl::Status HloParserImpl::ParseLiteralElement(Literal* literal, int64_t linear) {
  PrimitiveType type = literal->element_type();
  Location where = lex_.location();
  if (type == PRED) {
    if (lex_.TryConsumeKeyword("true")) {
      literal->data<bool>()[linear] = true;
    } else if (lex_.TryConsumeKeyword("false")) {
      literal->data<bool>()[linear] = false;
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t v, lex_.ParseInt("a pred value"));
      if (v != 0 && v != 1) return lex_.Error(where, "a pred value must be true, false, 0 or 1");
      literal->data<bool>()[linear] = v != 0;
    }
    return absl::OkStatus();
  }
  auto parse_real = [&](absl::string_view what) -> absl::StatusOr<double> {
    Location w = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view text, lex_.ParseNumberText(what));
    double v;
    if (!ParseFloatText(text, &v)) return lex_.Error(w, absl::StrCat("bad number '", text, "'"));
    return v;
  };
  if (primitive_util::IsComplexType(type)) {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "to open a complex value"));
    SYSTOLIC_ASSIGN_OR_RETURN(double re, parse_real("the real part"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(',', "between the real and imaginary parts"));
    SYSTOLIC_ASSIGN_OR_RETURN(double im, parse_real("the imaginary part"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close a complex value"));
    literal->SetFromComplex128(linear, complex128(re, im));
    return absl::OkStatus();
  }
  if (primitive_util::IsFloatingPointType(type)) {
    // Most elements of a large constant are plain decimals: read them in
    // place (f32 arrays do so in ParseArrayLiteral). Anything else (inf,
    // nan, hex, '+', out of range, a malformed number) takes the general
    // path below.
    if (double v; type != F32 && ReadDecimalInPlace(&v)) {
      literal->SetFromDouble(linear, v);
      return absl::OkStatus();
    }
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view text, lex_.ParseNumberText("a number"));
    if (type == F32) {
      // Read f32 directly so the decimal text rounds once.
      float v;
      if (!ParseFloatText(text, &v)) return lex_.Error(where, absl::StrCat("bad number '", text, "'"));
      literal->data<float>()[linear] = v;
    } else {
      double v;
      if (!ParseFloatText(text, &v)) return lex_.Error(where, absl::StrCat("bad number '", text, "'"));
      literal->SetFromDouble(linear, v);
    }
    return absl::OkStatus();
  }
  // Integers: check the range of the type.
  SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view text, lex_.ParseNumberText("an integer"));
  int64_t lo = 0;
  uint64_t hi = 0;
  int bits = primitive_util::BitWidth(type);
  if (primitive_util::IsSignedIntegralType(type)) {
    lo = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    hi = bits == 64 ? uint64_t(INT64_MAX) : (uint64_t{1} << (bits - 1)) - 1;
  } else {
    hi = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  }
  if (!text.empty() && text[0] == '-') {
    int64_t v;
    if (!absl::SimpleAtoi(text, &v) || v < lo) {
      return lex_.Error(where, absl::StrCat("value ", text, " does not fit ",
                                            primitive_util::LowercasePrimitiveTypeName(type)));
    }
    literal->SetFromInt64(linear, v);
  } else {
    uint64_t v;
    if (!absl::SimpleAtoi(text, &v)) {
      // Integers written as floats ("1.0e3") in old text.
      double d;
      if (!absl::SimpleAtod(text, &d) || d != std::floor(d) || d < 0 || d > double(hi)) {
        return lex_.Error(where, absl::StrCat("expected an integer, found '", text, "'"));
      }
      v = uint64_t(d);
    }
    if (v > hi) {
      return lex_.Error(where, absl::StrCat("value ", text, " does not fit ",
                                            primitive_util::LowercasePrimitiveTypeName(type)));
    }
    literal->SetFromInt64(linear, int64_t(v));
  }
  return absl::OkStatus();
}

// --- Shardings ----------------------------------------------------------------

absl::StatusOr<HloSharding> HloParserImpl::ParseSharding() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open a sharding"));
  // A tuple sharding is a list of shardings: {{...}, {...}} or {}.
  if (lex_.Peek() == '{' || lex_.Peek() == '}') {
    std::vector<HloSharding> elements;
    if (lex_.Peek() == '{') {
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(HloSharding e, ParseSharding());
        elements.push_back(std::move(e));
      } while (lex_.TryConsume(','));
    }
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close a tuple sharding"));
    return HloSharding::Tuple(std::move(elements));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(HloSharding s, ParseSingleSharding());
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close the sharding"));
  return s;
}

absl::StatusOr<HloSharding> HloParserImpl::ParseSingleSharding() {
  HloSharding sharding;
  bool have_kind = false;
  std::optional<TileAssignment> tiles;
  std::vector<HloSharding::SubgroupType> subgroups;
  bool last_tile_dim_replicate = false;
  while (lex_.Peek() != '}' && !lex_.AtEnd()) {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view word, lex_.ParseName("a sharding attribute"));
    if (word == "replicated") {
      sharding = HloSharding::Replicate();
      have_kind = true;
    } else if (word == "manual") {
      sharding = HloSharding::Manual();
      have_kind = true;
    } else if (word == "unknown") {
      sharding = HloSharding::Unknown();
      have_kind = true;
    } else if (word == "maximal") {
      have_kind = true;
      sharding = HloSharding::AssignDevice(0);
    } else if (word == "device") {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after device"));
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, lex_.ParseInt("a device id"));
      if (d < 0) return lex_.Error(where, "device ids are not negative");
      sharding = HloSharding::AssignDevice(d);
    } else if (word == "devices") {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after devices"));
      SYSTOLIC_ASSIGN_OR_RETURN(TileAssignment t, ParseTileAssignment(true));
      tiles = std::move(t);
      have_kind = true;
    } else if (word == "last_tile_dim_replicate") {
      last_tile_dim_replicate = true;
    } else if (word == "last_tile_dims") {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after last_tile_dims"));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open last_tile_dims"));
      do {
        Location type_where = lex_.location();
        SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view t, lex_.ParseName("a subgroup type"));
        if (t == "manual") {
          subgroups.push_back(HloSharding::SubgroupType::kManual);
        } else if (t == "replicated") {
          subgroups.push_back(HloSharding::SubgroupType::kReplicated);
        } else {
          return lex_.Error(type_where, absl::StrCat("unknown subgroup type '", t, "'"));
        }
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close last_tile_dims"));
    } else if (word == "shard_as" || word == "shard_like") {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t id, lex_.ParseInt("a shard group id"));
      sharding.SetShardGroup(id, word == "shard_as");
    } else if (word == "metadata") {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after metadata"));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open sharding metadata"));
      std::vector<OpMetadata> metadata;
      if (lex_.Peek() == '{') {
        do {
          SYSTOLIC_ASSIGN_OR_RETURN(OpMetadata m, ParseMetadata());
          metadata.push_back(std::move(m));
        } while (lex_.TryConsume(','));
        SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close sharding metadata"));
      } else {
        SYSTOLIC_ASSIGN_OR_RETURN(OpMetadata m, ParseMetadataBody());
        metadata.push_back(std::move(m));
      }
      *sharding.mutable_metadata() = std::move(metadata);
    } else {
      return lex_.Error(where, absl::StrCat("unknown sharding attribute '", word, "'"));
    }
  }
  if (!have_kind) return lex_.ErrorHere("a sharding needs replicated, manual, maximal or devices=");
  if (tiles) {
    if (last_tile_dim_replicate) {
      if (!subgroups.empty()) {
        return lex_.ErrorHere("last_tile_dim_replicate and last_tile_dims cannot be combined");
      }
      subgroups.push_back(HloSharding::SubgroupType::kReplicated);
    }
    if (subgroups.size() > tiles->dimensions().size()) {
      return lex_.ErrorHere("more subgroup types than tile dimensions");
    }
    auto group = sharding.shard_group_id();
    bool as = sharding.shard_as();
    auto metadata = sharding.metadata();
    sharding = HloSharding::Tile(std::move(*tiles), std::move(subgroups));
    if (group) sharding.SetShardGroup(*group, as);
    *sharding.mutable_metadata() = std::move(metadata);
  }
  return sharding;
}

absl::StatusOr<TileAssignment> HloParserImpl::ParseTileAssignment(bool allow_explicit) {
  Location where = lex_.location();
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('[', "to open the tile dimensions"));
  std::vector<int64_t> dims;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, lex_.ParseInt("a tile dimension"));
    if (d <= 0) return lex_.Error(where, "tile dimensions must be positive");
    dims.push_back(d);
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close the tile dimensions"));
  int64_t count = 1;
  for (int64_t d : dims) {
    if (count > (int64_t{1} << 24) / d) return lex_.Error(where, "too many devices");
    count *= d;
  }
  if (lex_.TryConsume("<=")) {
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('[', "to open the iota dimensions"));
    std::vector<int64_t> reshape;
    do {
      SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, lex_.ParseInt("an iota dimension"));
      if (d <= 0) return lex_.Error(where, "iota dimensions must be positive");
      reshape.push_back(d);
    } while (lex_.TryConsume(','));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(']', "to close the iota dimensions"));
    std::vector<int64_t> perm;
    if (lex_.TryConsume('T')) {
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('(', "after T"));
      do {
        SYSTOLIC_ASSIGN_OR_RETURN(int64_t p, lex_.ParseInt("a transpose dimension"));
        perm.push_back(p);
      } while (lex_.TryConsume(','));
      SYSTOLIC_RETURN_IF_ERROR(lex_.Expect(')', "to close T(...)"));
    }
    auto t = TileAssignment::Iota(std::move(dims), std::move(reshape), std::move(perm));
    if (!t.ok()) return lex_.Error(where, t.status().message());
    return *std::move(t);
  }
  if (!allow_explicit) return lex_.ErrorHere("expected '<=' in iota replica groups");
  std::vector<int64_t> devices;
  devices.reserve(count);
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t d, lex_.ParseInt("a device id"));
    devices.push_back(d);
  } while (lex_.TryConsume(','));
  if (int64_t(devices.size()) != count) {
    return lex_.Error(where, absl::StrCat("tile assignment [", absl::StrJoin(dims, ","),
                                          "] needs ", count, " device ids, found ",
                                          devices.size()));
  }
  return TileAssignment(std::move(dims), std::move(devices));
}

// --- Small attribute values ----------------------------------------------------------------

absl::StatusOr<OpMetadata> HloParserImpl::ParseMetadata() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open metadata"));
  return ParseMetadataBody();
}

absl::StatusOr<OpMetadata> HloParserImpl::ParseMetadataBody() {
  OpMetadata m;
  while (lex_.Peek() != '}') {
    if (lex_.AtEnd()) return lex_.ErrorHere("metadata is not closed");
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view key, lex_.ParseName("a metadata field"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a metadata field"));
    auto str = [&](std::string* out) -> absl::Status {
      SYSTOLIC_ASSIGN_OR_RETURN(*out, lex_.ParseString(key));
      return absl::OkStatus();
    };
    auto num = [&](int64_t* out) -> absl::Status {
      SYSTOLIC_ASSIGN_OR_RETURN(*out, lex_.ParseInt(key));
      return absl::OkStatus();
    };
    if (key == "op_type") {
      SYSTOLIC_RETURN_IF_ERROR(str(&m.op_type));
    } else if (key == "op_name") {
      SYSTOLIC_RETURN_IF_ERROR(str(&m.op_name));
    } else if (key == "source_file") {
      SYSTOLIC_RETURN_IF_ERROR(str(&m.source_file));
    } else if (key == "source_line") {
      SYSTOLIC_RETURN_IF_ERROR(num(&m.source_line));
    } else if (key == "source_end_line") {
      SYSTOLIC_RETURN_IF_ERROR(num(&m.source_end_line));
    } else if (key == "source_column") {
      SYSTOLIC_RETURN_IF_ERROR(num(&m.source_column));
    } else if (key == "source_end_column") {
      SYSTOLIC_RETURN_IF_ERROR(num(&m.source_end_column));
    } else if (key == "deduplicated_name") {
      SYSTOLIC_RETURN_IF_ERROR(str(&m.deduplicated_name));
    } else if (key == "preserve_layout") {
      SYSTOLIC_ASSIGN_OR_RETURN(m.preserve_layout, lex_.ParseBool(key));
    } else if (key == "scheduling_name") {
      SYSTOLIC_RETURN_IF_ERROR(str(&m.scheduling_name));
    } else if (key == "stack_frame_id") {
      SYSTOLIC_RETURN_IF_ERROR(num(&m.stack_frame_id));
    } else if (key == "profile_type" || key == "size_of_generated_code_in_bytes" ||
               key == "size_of_memory_working_set_in_bytes") {
      SYSTOLIC_RETURN_IF_ERROR(ParseRawValue(key).status());  // profiling detail, not kept
    } else {
      return lex_.Error(where, absl::StrCat("unknown metadata field '", key, "'"));
    }
    lex_.TryConsume(',');
  }
  lex_.TryConsume('}');
  return m;
}

absl::StatusOr<FrontendAttributes> HloParserImpl::ParseFrontendAttributes() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open frontend_attributes"));
  FrontendAttributes attrs;
  if (lex_.TryConsume('}')) return attrs;
  do {
    std::string key;
    if (lex_.Peek() == '"') {
      SYSTOLIC_ASSIGN_OR_RETURN(key, lex_.ParseString("an attribute key"));
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view k, lex_.ParseName("an attribute key"));
      key = std::string(k);
    }
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a frontend attribute key"));
    std::string value;
    if (lex_.Peek() == '{') {
      SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view raw, lex_.ParseBalancedBraces(key));
      value = std::string(raw);
    } else {
      SYSTOLIC_ASSIGN_OR_RETURN(value, lex_.ParseString(key));
    }
    attrs[std::move(key)] = std::move(value);
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close frontend_attributes"));
  return attrs;
}

absl::StatusOr<std::vector<int64_t>> HloParserImpl::ParseIntList(absl::string_view what) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open ", what));
  std::vector<int64_t> values;
  if (lex_.TryConsume('}')) return values;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t v, lex_.ParseInt(what));
    values.push_back(v);
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close ", what));
  return values;
}

absl::StatusOr<std::vector<std::vector<int64_t>>> HloParserImpl::ParseIntListList(
    absl::string_view what) {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open ", what));
  std::vector<std::vector<int64_t>> lists;
  if (lex_.TryConsume('}')) return lists;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<int64_t> l, ParseIntList(what));
    lists.push_back(std::move(l));
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close ", what));
  return lists;
}

absl::StatusOr<Window> HloParserImpl::ParseWindow() {
  Location where = lex_.location();
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open window"));
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, reversal;
  std::vector<std::pair<int64_t, int64_t>> pad;
  auto parse_x_list = [&](absl::string_view field) -> absl::StatusOr<std::vector<int64_t>> {
    std::vector<int64_t> values;
    absl::string_view text = lex_.ScanWhile([](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == 'x' || c == '-';
    });
    for (absl::string_view part : absl::StrSplit(text, 'x')) {
      int64_t v;
      if (!absl::SimpleAtoi(part, &v)) {
        return lex_.Error(where, absl::StrCat("bad window ", field, " '", text, "'"));
      }
      values.push_back(v);
    }
    return values;
  };
  while (lex_.Peek() != '}') {
    if (lex_.AtEnd()) return lex_.Error(where, "window is not closed");
    Location field_where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view field, lex_.ParseIdentifier("a window field"));
    SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('=', "after a window field"));
    if (field == "size") {
      SYSTOLIC_ASSIGN_OR_RETURN(size, parse_x_list(field));
    } else if (field == "stride") {
      SYSTOLIC_ASSIGN_OR_RETURN(stride, parse_x_list(field));
    } else if (field == "lhs_dilate") {
      SYSTOLIC_ASSIGN_OR_RETURN(lhs_dilate, parse_x_list(field));
    } else if (field == "rhs_dilate") {
      SYSTOLIC_ASSIGN_OR_RETURN(rhs_dilate, parse_x_list(field));
    } else if (field == "rhs_reversal") {
      SYSTOLIC_ASSIGN_OR_RETURN(reversal, parse_x_list(field));
    } else if (field == "pad") {
      absl::string_view text = lex_.ScanWhile([](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == 'x' || c == '-' || c == '_';
      });
      for (absl::string_view part : absl::StrSplit(text, 'x')) {
        std::vector<absl::string_view> lh = absl::StrSplit(part, '_');
        int64_t lo, hi;
        if (lh.size() != 2 || !absl::SimpleAtoi(lh[0], &lo) || !absl::SimpleAtoi(lh[1], &hi)) {
          return lex_.Error(field_where, absl::StrCat("bad window padding '", text,
                                                      "' (expected low_high per dimension)"));
        }
        pad.push_back({lo, hi});
      }
    } else {
      return lex_.Error(field_where, absl::StrCat("unknown window field '", field, "'"));
    }
  }
  lex_.TryConsume('}');
  size_t rank = size.size();
  auto check = [&](size_t n, absl::string_view field) -> absl::Status {
    if (n != 0 && n != rank) {
      return lex_.Error(where, absl::StrCat("window ", field, " has ", n,
                                            " dimensions but size has ", rank));
    }
    return absl::OkStatus();
  };
  SYSTOLIC_RETURN_IF_ERROR(check(stride.size(), "stride"));
  SYSTOLIC_RETURN_IF_ERROR(check(pad.size(), "pad"));
  SYSTOLIC_RETURN_IF_ERROR(check(lhs_dilate.size(), "lhs_dilate"));
  SYSTOLIC_RETURN_IF_ERROR(check(rhs_dilate.size(), "rhs_dilate"));
  SYSTOLIC_RETURN_IF_ERROR(check(reversal.size(), "rhs_reversal"));
  Window w;
  for (size_t i = 0; i < rank; ++i) {
    WindowDimension d;
    d.size = size[i];
    if (!stride.empty()) d.stride = stride[i];
    if (!pad.empty()) {
      d.padding_low = pad[i].first;
      d.padding_high = pad[i].second;
    }
    if (!lhs_dilate.empty()) d.base_dilation = lhs_dilate[i];
    if (!rhs_dilate.empty()) d.window_dilation = rhs_dilate[i];
    if (!reversal.empty()) d.window_reversal = reversal[i] != 0;
    w.dimensions.push_back(d);
  }
  return w;
}

absl::StatusOr<PaddingConfig> HloParserImpl::ParsePadding() {
  Location where = lex_.location();
  absl::string_view text = lex_.ScanWhile([](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == 'x' || c == '-' || c == '_';
  });
  PaddingConfig config;
  if (text.empty()) return config;
  for (absl::string_view part : absl::StrSplit(text, 'x')) {
    std::vector<absl::string_view> fields = absl::StrSplit(part, '_');
    PaddingDimension d;
    if ((fields.size() != 2 && fields.size() != 3) ||
        !absl::SimpleAtoi(fields[0], &d.edge_padding_low) ||
        !absl::SimpleAtoi(fields[1], &d.edge_padding_high) ||
        (fields.size() == 3 && !absl::SimpleAtoi(fields[2], &d.interior_padding))) {
      return lex_.Error(where, absl::StrCat("bad padding '", text,
                                            "' (expected low_high or low_high_interior per "
                                            "dimension, joined by x)"));
    }
    config.dimensions.push_back(d);
  }
  return config;
}

absl::StatusOr<ShapeIndex> HloParserImpl::ParseShapeIndex() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open a shape index"));
  ShapeIndex index;
  if (lex_.TryConsume('}')) return index;
  do {
    SYSTOLIC_ASSIGN_OR_RETURN(int64_t i, lex_.ParseInt("a shape index"));
    index.push_back(i);
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close a shape index"));
  return index;
}

absl::StatusOr<std::vector<Precision>> HloParserImpl::ParsePrecisionList() {
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('{', "to open operand_precision"));
  std::vector<Precision> out;
  if (lex_.TryConsume('}')) return out;
  do {
    Location where = lex_.location();
    SYSTOLIC_ASSIGN_OR_RETURN(absl::string_view name, lex_.ParseName("a precision"));
    auto p = StringToPrecision(absl::AsciiStrToLower(name));
    if (!p) {
      return lex_.Error(where, absl::StrCat("unknown precision '", name,
                                            "' (expected default, high or highest)"));
    }
    out.push_back(*p);
  } while (lex_.TryConsume(','));
  SYSTOLIC_RETURN_IF_ERROR(lex_.Expect('}', "to close operand_precision"));
  return out;
}

absl::StatusOr<Shape> HloParserImpl::ParseShapeToEnd() {
  SYSTOLIC_ASSIGN_OR_RETURN(Shape s, ParseShape());
  if (!lex_.AtEnd()) return lex_.ErrorHere("unexpected text after the shape");
  return s;
}

absl::StatusOr<HloSharding> HloParserImpl::ParseShardingToEnd() {
  SYSTOLIC_ASSIGN_OR_RETURN(HloSharding s, ParseSharding());
  if (!lex_.AtEnd()) return lex_.ErrorHere("unexpected text after the sharding");
  return s;
}

absl::StatusOr<Literal> HloParserImpl::ParseLiteralToEnd(const Shape& shape) {
  SYSTOLIC_ASSIGN_OR_RETURN(Literal l, ParseLiteral(shape));
  if (!lex_.AtEnd()) return lex_.ErrorHere("unexpected text after the literal");
  return l;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> ParseAndReturnUnverifiedModule(
    absl::string_view text, const HloParseOptions& options) {
  HloParserImpl parser(text, options);
  return parser.ParseModule();
}

absl::StatusOr<std::unique_ptr<HloModule>> ParseAndReturnVerifiedModule(
    absl::string_view text, const HloParseOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                            ParseAndReturnUnverifiedModule(text, options));
  SYSTOLIC_RETURN_IF_ERROR(VerifyHloModule(*module));
  return module;
}

absl::StatusOr<Shape> ParseShape(absl::string_view text) {
  return HloParserImpl(text, {}).ParseShapeToEnd();
}

absl::StatusOr<HloSharding> ParseSharding(absl::string_view text) {
  return HloParserImpl(text, {}).ParseShardingToEnd();
}

absl::StatusOr<Literal> ParseLiteral(absl::string_view text, const Shape& shape) {
  return HloParserImpl(text, {}).ParseLiteralToEnd(shape);
}

std::vector<HloTextChunk> SplitHloText(absl::string_view text) {
  std::vector<HloTextChunk> chunks;
  HloTextChunk current;
  int line = 1;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line_text = text.substr(pos, end - pos);
    if (absl::StripAsciiWhitespace(line_text) == "// -----") {
      chunks.push_back(std::move(current));
      current = HloTextChunk();
      current.first_line = line + 1;
    } else {
      current.text.append(line_text.data(), line_text.size());
      current.text += '\n';
    }
    ++line;
    if (end == text.size()) break;
    pos = end + 1;
  }
  chunks.push_back(std::move(current));
  // Drop chunks that hold only comments and whitespace.
  std::vector<HloTextChunk> nonempty;
  for (HloTextChunk& c : chunks) {
    HloLexer probe(c.text, "", 1);
    if (!probe.AtEnd()) nonempty.push_back(std::move(c));
  }
  return nonempty;
}

}  // namespace systolic
