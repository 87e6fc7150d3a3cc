// The part of the lazy graph a sync computes: every node reachable from the
// roots in post order (operands first), the device data among them (the
// program's parameters, in first-use order) and the roots.
#pragma once

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

struct GraphWalk {
  std::vector<const Node*> post_order;
  std::vector<const Node*> parameters;
  std::vector<const Node*> roots;
  // Position of each node in post_order.
  absl::flat_hash_map<const Node*, int64_t> position;
};

// Walks without recursion: training graphs are deep.
GraphWalk WalkGraph(absl::Span<const NodePtr> roots);

// The shared pointer of every node of `walk` (which holds raw ones), for
// code that builds new nodes on them: the roots' and every operand's.
absl::flat_hash_map<const Node*, NodePtr> NodeOwners(absl::Span<const NodePtr> roots,
                                                     const GraphWalk& walk);

}  // namespace systolic::lazy
