// Turns a set of instructions of one computation into one fusion
// instruction: a new fused computation holds copies of them (fusions among
// them are inlined), its parameters are the values read from outside, its
// root the outputs (a tuple when there are several). Users outside read the
// fusion (or a get-tuple-element of it). Provenance is carried over: the
// fusion is made of all its members, each fused copy of its original, each
// fused parameter and get-tuple-element of the value it stands for.
#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

class FusionBuilder {
 public:
  explicit FusionBuilder(HloModule* module);

  // `instructions`: operands before users, all in one computation, closed
  // under the paths between them (no outside instruction both reads one
  // member and feeds another). `outputs`: members read from outside.
  absl::StatusOr<HloInstruction*> Fuse(const std::vector<HloInstruction*>& instructions,
                                       const std::vector<HloInstruction*>& outputs,
                                       FusionKind kind);

 private:
  std::string UniqueComputationName(const std::string& base);

  HloModule* module_;
  absl::flat_hash_set<std::string> computation_names_;
};

}  // namespace systolic
