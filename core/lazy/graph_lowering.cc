#include "core/lazy/graph_lowering.h"

#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/scan.h"

namespace systolic::lazy {
namespace {

// The tensor's name as an HLO name ("mlp/dense_1/weight" ->
// "mlp.dense_1.weight"), so programs and recompilation causes name the
// user's tensors; "p<n>" for unnamed data.
std::string ParameterName(const std::string& op_name, int64_t number,
                          absl::flat_hash_set<std::string>* taken) {
  std::string name;
  for (char c : op_name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    name.push_back(ok ? c : '.');
  }
  if (name.empty() || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
                        name[0] == '_')) {
    name = absl::StrCat("p", number, name.empty() ? "" : ".", name);
  }
  if (!taken->insert(name).second) {
    name = absl::StrCat(name, ".", number);
    taken->insert(name);
  }
  return name;
}

HloInstruction* S32Constant(HloComputation* into, int64_t value) {
  Literal literal(Shape::MakeScalar(S32));
  literal.SetFromDouble(0, double(value));
  return into->AddInstruction(HloInstruction::CreateConstant(std::move(literal)));
}

// Lowers nodes into computations of one module: scalar computations once
// per (kind, type), scan nodes into while loops with their bodies.
class Lowerer {
 public:
  explicit Lowerer(HloModule* module) : module_(module) {}

  // Lowers `post_order` into `into`; `lowered` holds what is already there
  // (parameters, placeholders). Device data are `data` (null: an error).
  absl::Status LowerNodes(const std::vector<const Node*>& post_order, HloComputation* into,
                          absl::flat_hash_map<const Node*, HloInstruction*>& lowered,
                          const std::function<HloInstruction*(const Node*)>& data) {
    for (const Node* node : post_order) {
      if (lowered.contains(node)) continue;
      if (node->is_data()) {
        if (!data) {
          return absl::InternalError(absl::StrCat("device data ", node->metadata().op_name,
                                                  " inside a loop body"));
        }
        lowered[node] = data(node);
        continue;
      }
      std::vector<HloInstruction*> operands;
      operands.reserve(node->operand_count());
      for (const NodePtr& operand : node->operands()) operands.push_back(lowered.at(operand.get()));
      if (node->scan()) {
        SYSTOLIC_ASSIGN_OR_RETURN(lowered[node], LowerScan(*node, operands, into));
        continue;
      }
      auto clone = node->proto().CloneWithNewOperands(node->shape(), operands);
      clone->set_provenance({});
      clone->set_metadata(node->metadata());
      if (!node->computations().empty()) {
        const PrimitiveType type = node->operand(0)->shape().element_type();
        for (ScalarComputation kind : node->computations()) {
          clone->AppendCalledComputation(ScalarComputationFor(kind, type));
        }
      }
      lowered[node] = into->AddInstruction(std::move(clone));
    }
    return absl::OkStatus();
  }

 private:
  HloComputation* ScalarComputationFor(ScalarComputation kind, PrimitiveType type) {
    auto [it, inserted] = scalar_computations_.try_emplace({kind, type}, nullptr);
    if (inserted) {
      it->second = module_->AddEmbeddedComputation(BuildScalarComputation(kind, type));
    }
    return it->second;
  }

  // A while whose state is (i, carries, stacked inputs, invariants, stacked
  // outputs); iteration i reads slice i (or length-1-i) of each stacked
  // input and writes slice i of each stacked output. Returns the tuple of
  // the final carries and the stacked outputs.
  absl::StatusOr<HloInstruction*> LowerScan(const Node& node,
                                            const std::vector<HloInstruction*>& operands,
                                            HloComputation* into) {
    const ScanBody& body = *node.scan();
    const int64_t c = body.carries, s = body.stacked_inputs, k = body.invariants;
    const int64_t outputs = int64_t(body.results.size()) - c;
    const std::string name = absl::StrCat("scan.", ++scans_);

    std::vector<Shape> state_shapes = {Shape::MakeScalar(S32)};
    for (HloInstruction* operand : operands) state_shapes.push_back(operand->shape());
    for (int64_t y = 0; y < outputs; ++y) {
      state_shapes.push_back(node.shape().tuple_shapes(c + y));
    }
    const Shape state = Shape::MakeTuple(state_shapes);

    // The body.
    auto loop_body = std::make_unique<HloComputation>(absl::StrCat(name, ".body"));
    HloComputation* b = loop_body.get();
    HloInstruction* param = b->AddParameter(HloInstruction::CreateParameter(0, state, "state"));
    auto element = [&](int64_t i) {
      return b->AddInstruction(HloInstruction::CreateGetTupleElement(param, i));
    };
    HloInstruction* i = element(0);
    HloInstruction* index = i;
    if (body.reverse) {
      index = b->AddInstruction(HloInstruction::CreateBinary(
          Shape::MakeScalar(S32), HloOpcode::kSubtract, S32Constant(b, body.length - 1), i));
    }
    HloInstruction* zero = S32Constant(b, 0);
    auto starts = [&](int64_t rank) {
      std::vector<HloInstruction*> at = {index};
      for (int64_t d = 1; d < rank; ++d) at.push_back(zero);
      return at;
    };
    absl::flat_hash_map<const Node*, HloInstruction*> lowered;
    std::vector<HloInstruction*> passed(size_t(1 + c + s + k + outputs));
    for (int64_t p = 0; p < c + s + k; ++p) {
      HloInstruction* value = element(1 + p);
      passed[size_t(1 + p)] = value;
      const Node* placeholder = body.placeholders[size_t(p)].get();
      if (p >= c && p < c + s) {
        const Shape& stacked = value->shape();
        std::vector<int64_t> sizes = stacked.dimensions();
        sizes[0] = 1;
        std::vector<HloInstruction*> ds_operands = {value};
        for (HloInstruction* at : starts(stacked.rank())) ds_operands.push_back(at);
        auto slice = HloInstruction::Create(HloOpcode::kDynamicSlice,
                                            Shape(stacked.element_type(), sizes), ds_operands);
        slice->set_slice_sizes(sizes);
        HloInstruction* sliced = b->AddInstruction(std::move(slice));
        value = b->AddInstruction(HloInstruction::CreateReshape(placeholder->shape(), sliced));
      }
      lowered[placeholder] = value;
    }
    const GraphWalk walk = WalkGraph(body.results);
    SYSTOLIC_RETURN_IF_ERROR(LowerNodes(walk.post_order, b, lowered, nullptr));
    std::vector<HloInstruction*> next = {b->AddInstruction(HloInstruction::CreateBinary(
        Shape::MakeScalar(S32), HloOpcode::kAdd, i, S32Constant(b, 1)))};
    for (int64_t p = 0; p < c; ++p) next.push_back(lowered.at(body.results[size_t(p)].get()));
    for (int64_t p = c; p < c + s + k; ++p) next.push_back(passed[size_t(1 + p)]);
    for (int64_t y = 0; y < outputs; ++y) {
      HloInstruction* stacked = element(1 + c + s + k + y);
      HloInstruction* value = lowered.at(body.results[size_t(c + y)].get());
      std::vector<int64_t> one = {1};
      one.insert(one.end(), value->shape().dimensions().begin(), value->shape().dimensions().end());
      HloInstruction* update = b->AddInstruction(
          HloInstruction::CreateReshape(Shape(value->shape().element_type(), one), value));
      std::vector<HloInstruction*> dus_operands = {stacked, update};
      for (HloInstruction* at : starts(stacked->shape().rank())) dus_operands.push_back(at);
      next.push_back(b->AddInstruction(HloInstruction::Create(HloOpcode::kDynamicUpdateSlice,
                                                              stacked->shape(), dus_operands)));
    }
    b->set_root_instruction(b->AddInstruction(HloInstruction::CreateTuple(next)));

    // The condition: i < length.
    auto condition = std::make_unique<HloComputation>(absl::StrCat(name, ".condition"));
    HloInstruction* cp =
        condition->AddParameter(HloInstruction::CreateParameter(0, state, "state"));
    HloInstruction* ci =
        condition->AddInstruction(HloInstruction::CreateGetTupleElement(cp, 0));
    condition->set_root_instruction(condition->AddInstruction(HloInstruction::CreateCompare(
        Shape::MakeScalar(PRED), ci, S32Constant(condition.get(), body.length),
        ComparisonDirection::kLt)));

    HloComputation* cond_computation = module_->AddEmbeddedComputation(std::move(condition));
    HloComputation* body_computation = module_->AddEmbeddedComputation(std::move(loop_body));

    // The initial state: the outputs start as zeros.
    std::vector<HloInstruction*> init = {S32Constant(into, 0)};
    init.insert(init.end(), operands.begin(), operands.end());
    for (int64_t y = 0; y < outputs; ++y) {
      const Shape& shape = node.shape().tuple_shapes(c + y);
      Literal zero_value(Shape::MakeScalar(shape.element_type()));
      HloInstruction* scalar =
          into->AddInstruction(HloInstruction::CreateConstant(std::move(zero_value)));
      init.push_back(into->AddInstruction(HloInstruction::CreateBroadcast(shape, scalar, {})));
    }
    HloInstruction* initial = into->AddInstruction(HloInstruction::CreateTuple(init));
    auto loop = HloInstruction::CreateWhile(state, cond_computation, body_computation, initial);
    loop->set_metadata(node.metadata());
    loop->set_backend_config(
        absl::StrCat(R"({"known_trip_count":{"n":")", body.length, R"("}})"));
    HloInstruction* done = into->AddInstruction(std::move(loop));
    std::vector<HloInstruction*> results;
    for (int64_t p = 0; p < c; ++p) {
      results.push_back(into->AddInstruction(HloInstruction::CreateGetTupleElement(done, 1 + p)));
    }
    for (int64_t y = 0; y < outputs; ++y) {
      results.push_back(
          into->AddInstruction(HloInstruction::CreateGetTupleElement(done, 1 + c + s + k + y)));
    }
    return into->AddInstruction(HloInstruction::CreateTuple(results));
  }

  HloModule* module_;
  std::map<std::pair<ScalarComputation, PrimitiveType>, HloComputation*> scalar_computations_;
  int64_t scans_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> LowerGraph(const GraphWalk& walk,
                                                      const LoweringOptions& options) {
  if (walk.roots.empty()) return absl::InvalidArgumentError("nothing to lower: no roots");
  auto module = std::make_unique<HloModule>(options.module_name);
  module->set_replica_count(options.replica_count);
  module->set_num_partitions(options.num_partitions);

  // Callees (scalar computations, loop bodies) are added to the module
  // before the entry, so callees precede callers.
  auto entry = std::make_unique<HloComputation>("main");
  absl::flat_hash_set<std::string> parameter_names;
  absl::flat_hash_map<const Node*, HloInstruction*> lowered;
  int64_t parameter_number = 0;
  Lowerer lowerer(module.get());
  SYSTOLIC_RETURN_IF_ERROR(lowerer.LowerNodes(
      walk.post_order, entry.get(), lowered, [&](const Node* node) {
        // Device data become parameters, in first-use order.
        auto parameter = HloInstruction::CreateParameter(
            parameter_number, node->shape(),
            ParameterName(node->metadata().op_name, parameter_number, &parameter_names));
        ++parameter_number;
        if (node->sharding()) parameter->set_sharding(*node->sharding());
        parameter->set_metadata(node->metadata());
        return entry->AddParameter(std::move(parameter));
      }));

  std::vector<HloInstruction*> roots;
  roots.reserve(walk.roots.size());
  for (const Node* root : walk.roots) roots.push_back(lowered.at(root));
  entry->set_root_instruction(entry->AddInstruction(HloInstruction::CreateTuple(roots)));
  module->AddEntryComputation(std::move(entry));
  return module;
}

}  // namespace systolic::lazy
