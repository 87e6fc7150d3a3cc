#include "core/compiler/provenance.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {

void AdoptProvenance(HloInstruction* root, int64_t first_new_id, const HloInstruction& source) {
  std::vector<HloInstruction*> stack = {root};
  absl::flat_hash_set<HloInstruction*> seen;
  while (!stack.empty()) {
    HloInstruction* instr = stack.back();
    stack.pop_back();
    if (instr == &source || instr->unique_id() < first_new_id || !seen.insert(instr).second) {
      continue;
    }
    instr->MergeProvenanceFrom(source);
    for (HloInstruction* op : instr->operands()) stack.push_back(op);
    for (HloComputation* c : instr->called_computations()) {
      if (c->root_instruction() && c->root_instruction()->unique_id() >= first_new_id) {
        for (HloInstruction* inner : c->instructions()) stack.push_back(inner);
      }
    }
  }
}

void AdoptProvenanceForComputation(HloComputation* computation, const HloInstruction& source) {
  for (HloInstruction* instr : computation->instructions()) {
    instr->MergeProvenanceFrom(source);
    for (HloComputation* c : instr->called_computations()) {
      AdoptProvenanceForComputation(c, source);
    }
  }
}

}  // namespace systolic
