#include "core/lazy/graph_lowering.h"

#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

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

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> LowerGraph(const GraphWalk& walk,
                                                      const LoweringOptions& options) {
  if (walk.roots.empty()) return absl::InvalidArgumentError("nothing to lower: no roots");
  auto module = std::make_unique<HloModule>(options.module_name);
  module->set_replica_count(options.replica_count);
  module->set_num_partitions(options.num_partitions);

  // Scalar computations, one per (kind, element type), added to the module
  // before the entry so callees precede callers.
  std::map<std::pair<ScalarComputation, PrimitiveType>, HloComputation*> scalar_computations;
  auto scalar_computation = [&](ScalarComputation kind, PrimitiveType type) {
    auto [it, inserted] = scalar_computations.try_emplace({kind, type}, nullptr);
    if (inserted) {
      it->second = module->AddEmbeddedComputation(BuildScalarComputation(kind, type));
    }
    return it->second;
  };

  auto entry = std::make_unique<HloComputation>("main");
  absl::flat_hash_set<std::string> parameter_names;
  absl::flat_hash_map<const Node*, HloInstruction*> lowered;
  int64_t parameter_number = 0;
  for (const Node* node : walk.post_order) {
    HloInstruction* instr = nullptr;
    if (node->is_data()) {
      auto parameter = HloInstruction::CreateParameter(
          parameter_number, node->shape(),
          ParameterName(node->metadata().op_name, parameter_number, &parameter_names));
      ++parameter_number;
      if (node->sharding()) parameter->set_sharding(*node->sharding());
      parameter->set_metadata(node->metadata());
      instr = entry->AddParameter(std::move(parameter));
    } else {
      std::vector<HloInstruction*> operands;
      operands.reserve(node->operand_count());
      for (const NodePtr& operand : node->operands()) operands.push_back(lowered.at(operand.get()));
      auto clone = node->proto().CloneWithNewOperands(node->shape(), operands);
      clone->set_provenance({});
      clone->set_metadata(node->metadata());
      if (!node->computations().empty()) {
        const PrimitiveType type = node->operand(0)->shape().element_type();
        for (ScalarComputation kind : node->computations()) {
          clone->AppendCalledComputation(scalar_computation(kind, type));
        }
      }
      instr = entry->AddInstruction(std::move(clone));
    }
    lowered[node] = instr;
  }

  std::vector<HloInstruction*> roots;
  roots.reserve(walk.roots.size());
  for (const Node* root : walk.roots) roots.push_back(lowered.at(root));
  entry->set_root_instruction(entry->AddInstruction(HloInstruction::CreateTuple(roots)));
  module->AddEntryComputation(std::move(entry));
  return module;
}

}  // namespace systolic::lazy
