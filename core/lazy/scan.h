// Scanned layers, as `jax.lax.scan` and PyTorch/XLA's scan_layers record
// them: a body traced once over placeholders and run once per layer by one
// HLO `while`, so a 32-layer model is one loop in the program instead of 32
// copies. The weights of every layer are stacked along a leading dimension;
// iteration l takes slice l of each. The forward loop saves each layer's
// input; the gradient is a second loop, in reverse, that recomputes each
// layer from its saved input (rematerialisation) and takes its VJP.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/lazy/node.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// A loop's body graph. Its placeholders (parameter nodes) are, in order,
// the carries, one slice of each stacked input, and the loop-invariant
// values; its results are the new carries, then one slice of each stacked
// output.
struct ScanBody {
  int64_t length = 0;    // iterations
  bool reverse = false;  // iteration i takes slice length - 1 - i
  int64_t carries = 0;
  int64_t stacked_inputs = 0;
  int64_t invariants = 0;
  std::vector<NodePtr> placeholders;
  std::vector<NodePtr> results;
  // The forward loop of ScanLayers: one carry, stacked output 0 is each
  // iteration's carry input, saved for the gradient's recomputation.
  bool saves_carry_inputs = false;
  // Of the body graph (ops, attributes and wiring), for the node's
  // signature: two loops with equal bodies compile once.
  std::string signature;
};

namespace graph {

// A loop node over `carries`, `stacked_inputs` (leading dimension `length`
// each) and `invariants`; its value is a tuple of the final carries and the
// stacked outputs. Errors: results whose shapes do not match the carries,
// inputs of another leading dimension.
absl::StatusOr<NodePtr> Scan(std::shared_ptr<const ScanBody> body, std::vector<NodePtr> operands,
                             absl::string_view name = "scan");

// Operand cotangents of a ScanLayers loop node from its carry's cotangent:
// a reverse loop that recomputes each layer from its saved input and takes
// its VJP. Entries follow the operands (null where not `needed`).
absl::StatusOr<std::vector<NodePtr>> ScanCotangents(const NodePtr& scan, const NodePtr& cotangent,
                                                    const std::vector<bool>& needed);

}  // namespace graph

// carry <- body(carry, layer l's slice of each of `stacked`) for every
// layer l; returns the last carry. `body` is traced once; tensors it uses
// from outside become loop invariants. Errors (carried by the result): a
// body whose result is not shaped like the carry, stacked tensors of
// different lengths, a body that fails.
Tensor ScanLayers(const Tensor& carry, absl::Span<const Tensor> stacked,
                  absl::FunctionRef<Tensor(const Tensor& carry, absl::Span<const Tensor> layer)> body,
                  absl::string_view name = "scan");

}  // namespace systolic::lazy
