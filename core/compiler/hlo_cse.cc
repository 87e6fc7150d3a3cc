#include "core/compiler/hlo_cse.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

bool MayMerge(const HloInstruction& instr) {
  if (instr.HasSideEffect() || HloOpcodeIsCollective(instr.opcode())) return false;
  switch (instr.opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kRng:
    case HloOpcode::kRngBitGenerator:
    case HloOpcode::kRngGetAndUpdateState:
    case HloOpcode::kCustomCall:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kAfterAll:
    case HloOpcode::kSend:
    case HloOpcode::kRecv:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
      return false;
    default:
      return instr.control_predecessors().empty() && instr.control_successors().empty();
  }
}

size_t HashOf(const HloInstruction& instr) {
  size_t h = absl::HashOf(static_cast<int>(instr.opcode()), instr.shape().element_type(),
                          instr.shape().dimensions(), instr.dimensions());
  for (const HloInstruction* op : instr.operands()) h = absl::HashOf(h, op->unique_id());
  if (instr.opcode() == HloOpcode::kConstant && instr.has_literal()) {
    const Literal& l = instr.literal();
    h = absl::HashOf(h, absl::string_view(static_cast<const char*>(l.untyped_data()),
                                          size_t(l.size_bytes())));
  }
  return h;
}

bool SameLayoutState(const Shape& a, const Shape& b) {
  if (a.IsTuple()) {
    if (a.tuple_shapes_size() != b.tuple_shapes_size()) return false;
    for (int64_t i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!SameLayoutState(a.tuple_shapes(i), b.tuple_shapes(i))) return false;
    }
    return true;
  }
  return a.has_layout() == b.has_layout();
}

// Equal in everything but names, ids and metadata.
bool Equivalent(HloInstruction* a, HloInstruction* b) {
  if (a->opcode() != b->opcode() || a->operands() != b->operands() ||
      a->called_computations() != b->called_computations() || !(a->shape() == b->shape()) ||
      !SameLayoutState(a->shape(), b->shape())) {
    return false;
  }
  if (a->metadata() == b->metadata()) return a->SameAttributesAs(*b);
  OpMetadata saved = b->metadata();
  b->set_metadata(a->metadata());
  bool same = a->SameAttributesAs(*b);
  b->set_metadata(std::move(saved));
  return same;
}

}  // namespace

absl::StatusOr<bool> HloCSE::Run(HloModule* module) {
  int64_t merged = 0;
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    absl::flat_hash_map<size_t, std::vector<HloInstruction*>> seen;
    // Operands first: once an operand is merged, its users hash alike.
    for (HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (!MayMerge(*instr)) continue;
      std::vector<HloInstruction*>& bucket = seen[HashOf(*instr)];
      HloInstruction* equal = nullptr;
      for (HloInstruction* candidate : bucket) {
        if (Equivalent(candidate, instr)) {
          equal = candidate;
          break;
        }
      }
      if (equal == nullptr) {
        bucket.push_back(instr);
        continue;
      }
      SYSTOLIC_RETURN_IF_ERROR(computation->ReplaceInstruction(instr, equal));
      ++merged;
    }
  }
  if (merged > 0) run_log().rewrites["merged an instruction equal to an earlier one"] += merged;
  return merged > 0;
}

}  // namespace systolic
