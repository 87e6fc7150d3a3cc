// Evaluation of a fused computation chunk by chunk: when the fusion's
// result(s) are computed by elementwise ops over one element count, the whole
// chain runs over cache-sized chunks (kElementwiseChunk elements), each op's
// chunk staying in L1/L2, instead of writing every intermediate array to
// memory. Parameters and constants are read in place; broadcasts, transposes,
// slices, reverses and iotas are gathered a chunk at a time; reshapes, copies
// and layout-preserving bitcasts are free. Anything else the chain needs
// (a reduce, a dot...) is evaluated whole beforehand by the evaluator and
// read like a parameter.
#pragma once

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/array_view.h"
#include "core/eval/elementwise_kernel.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

class FusedElementwisePlan {
 public:
  // A plan for `computation` when its root (or every element of a tuple
  // root) is computed by elementwise ops; null when chunking would not help.
  static std::unique_ptr<FusedElementwisePlan> Build(const HloComputation& computation);

  // Instructions the caller evaluates whole and passes to Run, in this order.
  const std::vector<const HloInstruction*>& materialized() const { return materialized_; }

  absl::StatusOr<Literal> Run(absl::Span<const Literal* const> parameters,
                              absl::Span<const Literal* const> materialized) const;

 private:
  // Where a value is read from.
  struct Source {
    enum Kind { kParameter, kConstant, kMaterialized, kOwned } kind;
    int64_t index = 0;            // parameter number / materialized index / owned index
    const Literal* literal = nullptr;  // kConstant
  };
  struct Node {
    enum Kind { kDirect, kFill, kView, kKernel, kAlias } kind;
    PrimitiveType type;
    Source source;            // kDirect, kFill, kView
    ArrayView view;           // kView
    ElementwiseKernel kernel;  // kKernel
    std::vector<int> inputs;  // kKernel: nodes; kAlias: the aliased node
    int output = -1;          // the output this node writes in place, if any
  };

  FusedElementwisePlan() = default;
  // Returns the node computing `instr` (count_ elements), or -1 to give up.
  int NodeFor(const HloInstruction* instr);
  int AddNode(Node node, const HloInstruction* instr);
  Source SourceFor(const HloInstruction* instr);

  int64_t count_ = 0;
  Shape result_shape_;
  std::vector<Node> nodes_;
  std::vector<int> outputs_;  // node per output
  std::vector<const HloInstruction*> materialized_;
  std::vector<Literal> owned_;  // iota lines
  std::vector<std::pair<const HloInstruction*, int>> memo_;
};

}  // namespace systolic::eval
