// Linked selection between two pass stages of one program: an instruction
// of one stage stands for every instruction of the other made from at least
// one of the same original instructions — click a fusion after fusion and
// see the ops it came from before, or the reverse.
#pragma once

#include <vector>

#include "core/analysis/stage_module.h"

namespace systolic::analysis {

// Instructions of `to` linked to `instruction` (an instruction of `from`),
// in `to`'s program order, without repeats.
std::vector<const HloInstruction*> LinkedInstructions(const StageModule& from,
                                                      const HloInstruction* instruction,
                                                      const StageModule& to);

// The same for several instructions at once (their links, merged).
std::vector<const HloInstruction*> LinkedInstructions(
    const StageModule& from, const std::vector<const HloInstruction*>& instructions,
    const StageModule& to);

}  // namespace systolic::analysis
