// One recorded operation of the lazy graph. A node is an HLO instruction in
// waiting: a prototype instruction holding the opcode, the result shape and
// every attribute, plus the operand nodes. Lowering clones the prototype
// into a module with the lowered operands, so lowering stays trivial and
// autodiff sees only HLO primitives. Leaves are device data (lowered to
// parameters) and constants. Nodes are immutable once made and shared
// between tensors and graphs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/hlo_instruction.h"
#include "core/hlo/op_metadata.h"
#include "core/lazy/scalar_computation.h"

namespace systolic::lazy {

class DeviceData;
struct ScanBody;
class Node;
using NodePtr = std::shared_ptr<const Node>;

class Node {
 public:
  struct Options {
    // op_type / op_name (the user's layer path) / source of the operation.
    OpMetadata metadata;
    // Autodiff treats the node's value as a constant (e.g. the max
    // subtracted inside softmax).
    bool stop_gradient = false;
    // A loop over a body graph (scan.h); the proto is then a `while`.
    std::shared_ptr<const ScanBody> scan;
  };

  // An operation: `proto` carries opcode, shape and attributes (no operands,
  // no called computations; `computations` names those).
  static NodePtr MakeOp(std::unique_ptr<HloInstruction> proto, std::vector<NodePtr> operands,
                        std::vector<ScalarComputation> computations, Options options);
  // A value already on the devices; `sharding` says how it is laid out.
  static NodePtr MakeData(std::shared_ptr<const DeviceData> data,
                          std::optional<HloSharding> sharding, OpMetadata metadata);

  HloOpcode opcode() const { return proto_->opcode(); }
  const Shape& shape() const { return proto_->shape(); }
  const HloInstruction& proto() const { return *proto_; }
  const std::vector<NodePtr>& operands() const { return operands_; }
  const NodePtr& operand(int64_t i) const { return operands_[i]; }
  int64_t operand_count() const { return int64_t(operands_.size()); }
  const std::vector<ScalarComputation>& computations() const { return computations_; }
  const OpMetadata& metadata() const { return metadata_; }
  bool stop_gradient() const { return stop_gradient_; }
  // The loop's body when the node is a scan (scan.h), else null.
  const std::shared_ptr<const ScanBody>& scan() const { return scan_; }

  bool is_data() const { return data_ != nullptr; }
  const std::shared_ptr<const DeviceData>& data() const { return data_; }
  bool is_constant() const { return opcode() == HloOpcode::kConstant; }
  // The sharding annotation the node carries (data layout or a Sharding
  // custom-call), if any.
  const HloSharding* sharding() const {
    return proto_->has_sharding() ? &proto_->sharding() : nullptr;
  }

  // Increasing in creation order; orders graph roots deterministically.
  int64_t id() const { return id_; }

  // What the node computes apart from its operands: opcode, shape,
  // attributes (constants by value, sharding included) and called
  // computations. Metadata is left out, so renaming a scope never
  // recompiles.
  const std::string& signature() const { return signature_; }
  // The opcode and called computations only: the "op sequence" a
  // recompilation cause compares first.
  const std::string& structural_signature() const { return structural_signature_; }

 private:
  Node() = default;
  void ComputeSignatures();

  std::unique_ptr<HloInstruction> proto_;
  std::vector<NodePtr> operands_;
  std::vector<ScalarComputation> computations_;
  OpMetadata metadata_;
  bool stop_gradient_ = false;
  std::shared_ptr<const ScanBody> scan_;
  std::shared_ptr<const DeviceData> data_;
  int64_t id_ = 0;
  std::string signature_;
  std::string structural_signature_;
};

}  // namespace systolic::lazy
