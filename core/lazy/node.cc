#include "core/lazy/node.h"

#include <atomic>

#include "absl/strings/str_cat.h"
#include "core/lazy/device_data.h"
#include "core/lazy/scan.h"

namespace systolic::lazy {
namespace {

int64_t NextNodeId() {
  static std::atomic<int64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

NodePtr Node::MakeOp(std::unique_ptr<HloInstruction> proto, std::vector<NodePtr> operands,
                     std::vector<ScalarComputation> computations, Options options) {
  std::shared_ptr<Node> node(new Node());
  node->proto_ = std::move(proto);
  node->operands_ = std::move(operands);
  node->computations_ = std::move(computations);
  node->metadata_ = std::move(options.metadata);
  node->stop_gradient_ = options.stop_gradient;
  node->scan_ = std::move(options.scan);
  node->id_ = NextNodeId();
  node->ComputeSignatures();
  return node;
}

NodePtr Node::MakeData(std::shared_ptr<const DeviceData> data,
                       std::optional<HloSharding> sharding, OpMetadata metadata) {
  std::shared_ptr<Node> node(new Node());
  node->proto_ = HloInstruction::CreateParameter(0, data->shape(), "");
  if (sharding) node->proto_->set_sharding(*sharding);
  node->data_ = std::move(data);
  node->metadata_ = std::move(metadata);
  node->id_ = NextNodeId();
  node->ComputeSignatures();
  return node;
}

void Node::ComputeSignatures() {
  // The prototype prints its attributes without operands or metadata.
  const std::string head =
      absl::StrCat(HloOpcodeString(opcode()), " ", shape().ToString(/*print_layout=*/false));
  std::string computations;
  for (ScalarComputation c : computations_) {
    absl::StrAppend(&computations, " to_apply=", ScalarComputationName(c));
  }
  // The printer names select-and-scatter's computations, which prototypes
  // do not have yet: its window is all it needs.
  // A scan's prototype is a `while` without its computations yet: its body
  // (appended below) is all it has.
  std::string attributes =
      scan_ ? ""
      : opcode() == HloOpcode::kSelectAndScatter
          ? absl::StrCat(", window={", proto_->window().ToString(), "}",
                         proto_->has_sharding() ? ", sharding=" + proto_->sharding().ToString()
                                                : "")
          : proto_->AttributesToString();
  std::string value = is_constant() ? proto_->OperandsToString() : "";
  signature_ = absl::StrCat(head, "(", value, ")", attributes, computations);
  // A loop is its body: equal bodies compile once, any change recompiles.
  if (scan_) absl::StrAppend(&signature_, " body={", scan_->signature, "}");

  // The op sequence: which ops, how connected (operands are compared by the
  // graph walk), nothing of their shapes, values or attributes.
  structural_signature_ = absl::StrCat(HloOpcodeString(opcode()), computations);
}

}  // namespace systolic::lazy
