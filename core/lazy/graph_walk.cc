#include "core/lazy/graph_walk.h"

#include <utility>

namespace systolic::lazy {

GraphWalk WalkGraph(absl::Span<const NodePtr> roots) {
  GraphWalk walk;
  // (node, next operand to visit)
  std::vector<std::pair<const Node*, int64_t>> stack;
  absl::flat_hash_map<const Node*, bool> seen;
  for (const NodePtr& root : roots) {
    walk.roots.push_back(root.get());
    if (!seen.emplace(root.get(), true).second) continue;
    stack.emplace_back(root.get(), 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operand_count()) {
        const Node* operand = node->operand(next++).get();
        if (seen.emplace(operand, true).second) stack.emplace_back(operand, 0);
        continue;
      }
      walk.position[node] = int64_t(walk.post_order.size());
      walk.post_order.push_back(node);
      if (node->is_data()) walk.parameters.push_back(node);
      stack.pop_back();
    }
  }
  return walk;
}

absl::flat_hash_map<const Node*, NodePtr> NodeOwners(absl::Span<const NodePtr> roots,
                                                     const GraphWalk& walk) {
  absl::flat_hash_map<const Node*, NodePtr> owner;
  for (const NodePtr& root : roots) owner[root.get()] = root;
  for (const Node* node : walk.post_order) {
    for (const NodePtr& operand : node->operands()) owner[operand.get()] = operand;
  }
  return owner;
}

}  // namespace systolic::lazy
