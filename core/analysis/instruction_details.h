// What the studio's details pane says about an instruction: identity,
// unit, shape, operands and users, called computations, source metadata
// and sharding, as (label, value) rows in display order.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/analysis/op_profile.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic::analysis {

// `simulated`: the instruction's figures in the open profile, when it ran.
// The unit row then says where the simulator ran it (the timeline's and the
// op profile's word), and what its opcode alone suggests when that differs;
// without a run, the opcode's unit.
std::vector<std::pair<std::string, std::string>> DescribeInstruction(
    const HloInstruction& instruction, const OpStats* simulated = nullptr);

}  // namespace systolic::analysis
