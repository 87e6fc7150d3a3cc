// Provenance for a sequence of stages that carry none of their own (the HLO
// text files of an XLA dump): instructions are linked across consecutive
// stages by name, so the views' op-by-op linking (which follows origin ids)
// works on XLA's pass history as it does on the project's own compiler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/trace/module_snapshot.h"

namespace systolic {
class HloModule;
}

namespace systolic::trace {

class StageNameLinker {
 public:
  // The provenance of every instruction of `module`, the next stage of the
  // sequence, in the order SnapshotModule records it (computations callees
  // first). An instruction whose name the previous stage had is the same
  // instruction (its id and origins carry over); one named with a clone
  // suffix (`multiply.3.1`, `add.clone`) of a name the previous stage had
  // was cloned or moved from it (into a fusion) and keeps its origins; a new
  // fusion is made from what it fuses; anything else is new and its own
  // origin.
  std::vector<InstructionProvenance> Link(const HloModule& module);

 private:
  absl::flat_hash_map<std::string, InstructionProvenance> previous_;
  int64_t next_id_ = 1;
};

}  // namespace systolic::trace
