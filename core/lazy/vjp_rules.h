// The vector-Jacobian product of every HLO primitive the front end records:
// given the cotangent of a node's value, the cotangents of its operands.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "core/lazy/node.h"

namespace systolic::lazy {

// One entry per operand: null where the operand gets no cotangent (not
// differentiable, or not `needed`). An op without a rule is Unimplemented,
// naming the op.
absl::StatusOr<std::vector<NodePtr>> OperandCotangents(const NodePtr& node,
                                                       const NodePtr& cotangent,
                                                       const std::vector<bool>& needed);

}  // namespace systolic::lazy
