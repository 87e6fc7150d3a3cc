#include "core/lazy/autodiff.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/graph_walk.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/vjp_rules.h"

namespace systolic::lazy {

absl::StatusOr<std::vector<NodePtr>> GradientNodes(const NodePtr& output,
                                                   absl::Span<const NodePtr> wrt,
                                                   const NodePtr& seed) {
  const GraphWalk walk = WalkGraph({output});
  // Rules build on the nodes' shared pointers.
  const absl::flat_hash_map<const Node*, NodePtr> owner = NodeOwners({output}, walk);

  // Only nodes on a path to a wanted input need cotangents.
  absl::flat_hash_set<const Node*> targets;
  for (const NodePtr& w : wrt) targets.insert(w.get());
  absl::flat_hash_set<const Node*> leads_to_target;
  for (const Node* node : walk.post_order) {
    bool leads = targets.contains(node);
    if (!node->stop_gradient()) {
      for (const NodePtr& operand : node->operands()) leads |= leads_to_target.contains(operand.get());
    }
    if (leads) leads_to_target.insert(node);
  }

  absl::flat_hash_map<const Node*, NodePtr> cotangent;
  if (leads_to_target.contains(output.get())) {
    NodePtr start = seed;
    if (!start) {
      ScopePathOverride scope(absl::StrCat("gradients/", output->metadata().op_name));
      SYSTOLIC_ASSIGN_OR_RETURN(start, graph::Full(1, output->shape(), "seed"));
    }
    cotangent[output.get()] = start;
  }

  for (auto it = walk.post_order.rbegin(); it != walk.post_order.rend(); ++it) {
    const Node* node = *it;
    auto found = cotangent.find(node);
    if (found == cotangent.end() || node->is_data() || node->stop_gradient()) continue;
    std::vector<bool> needed(node->operand_count());
    bool any = false;
    for (int64_t i = 0; i < node->operand_count(); ++i) {
      needed[i] = leads_to_target.contains(node->operand(i).get());
      any |= needed[i];
    }
    if (!any) continue;
    ScopePathOverride scope(absl::StrCat("gradients/", node->metadata().op_name));
    SYSTOLIC_ASSIGN_OR_RETURN(std::vector<NodePtr> operand_cotangents,
                              OperandCotangents(owner.at(node), found->second, needed));
    for (int64_t i = 0; i < node->operand_count(); ++i) {
      if (!needed[i] || !operand_cotangents[i]) continue;
      const Node* operand = node->operand(i).get();
      auto [slot, inserted] = cotangent.try_emplace(operand, operand_cotangents[i]);
      if (!inserted) {
        SYSTOLIC_ASSIGN_OR_RETURN(slot->second,
                                  graph::Binary(HloOpcode::kAdd, slot->second,
                                                operand_cotangents[i], "accumulate"));
      }
    }
  }

  std::vector<NodePtr> gradients;
  gradients.reserve(wrt.size());
  for (const NodePtr& w : wrt) {
    auto found = cotangent.find(w.get());
    if (found != cotangent.end()) {
      gradients.push_back(found->second);
    } else {
      ScopePathOverride scope(absl::StrCat("gradients/", w->metadata().op_name));
      SYSTOLIC_ASSIGN_OR_RETURN(NodePtr zeros, graph::Full(0, w->shape(), "zeros"));
      gradients.push_back(std::move(zeros));
    }
  }
  return gradients;
}

std::vector<Tensor> Gradients(const Tensor& loss, absl::Span<const Tensor> wrt) {
  std::vector<Tensor> inputs = {loss};
  inputs.insert(inputs.end(), wrt.begin(), wrt.end());
  // Recorded as one operation so an error reaches every gradient.
  std::vector<NodePtr> wrt_nodes;
  absl::StatusOr<std::vector<NodePtr>> nodes;
  Tensor check = RecordOp(inputs, [&]() -> absl::StatusOr<NodePtr> {
    for (const Tensor& w : wrt) wrt_nodes.push_back(w.node());
    nodes = GradientNodes(loss.node(), wrt_nodes);
    if (!nodes.ok()) return nodes.status();
    return loss.node();
  });
  std::vector<Tensor> out;
  out.reserve(wrt.size());
  for (size_t i = 0; i < wrt.size(); ++i) {
    if (!check.ok()) {
      out.push_back(Tensor::MakeError(check.device(), check.status()));
    } else {
      out.push_back(Tensor::Make(check.device(), (*nodes)[i]));
    }
  }
  return out;
}

Tensor StopGradient(const Tensor& x) {
  return RecordOp({x}, [&]() -> absl::StatusOr<NodePtr> { return graph::StopGradient(x.node()); });
}

}  // namespace systolic::lazy
