#include "core/lazy/graph_signature.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace systolic::lazy {

uint64_t StableHash(const std::string& text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

GraphSignature GraphSignature::Of(const GraphWalk& walk) {
  GraphSignature sig;
  sig.entries_.reserve(walk.post_order.size());
  int64_t parameter_number = 0;
  for (const Node* node : walk.post_order) {
    Entry e;
    std::vector<int64_t> operands;
    operands.reserve(node->operand_count());
    for (const NodePtr& operand : node->operands()) {
      operands.push_back(walk.position.at(operand.get()));
    }
    const std::string operand_text = absl::StrCat("(", absl::StrJoin(operands, ","), ")");
    e.opcode = std::string(HloOpcodeString(node->opcode()));
    e.structure = absl::StrCat(node->structural_signature(), operand_text);
    e.full = absl::StrCat(node->signature(), operand_text);
    e.shape = node->shape();
    if (node->is_data()) {
      e.parameter_number = parameter_number++;
      sig.parameters_.push_back(int64_t(sig.entries_.size()));
    }
    if (node->is_constant()) e.constant = node->proto().OperandsToString();
    if (node->sharding()) e.sharding = node->sharding()->ToString();
    e.op_name = node->metadata().op_name;
    absl::StrAppend(&sig.key_, e.full, "\n");
    sig.entries_.push_back(std::move(e));
  }
  for (const Node* root : walk.roots) sig.roots_.push_back(walk.position.at(root));
  absl::StrAppend(&sig.key_, "roots(", absl::StrJoin(sig.roots_, ","), ")");
  sig.hash_ = StableHash(sig.key_);
  return sig;
}

std::string GraphSignature::fingerprint() const { return absl::StrFormat("%016x", hash_); }

}  // namespace systolic::lazy
