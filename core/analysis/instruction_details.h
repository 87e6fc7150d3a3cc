// What the studio's details pane says about an instruction: identity,
// unit, shape, operands and users, called computations, source metadata
// and sharding, as (label, value) rows in display order.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/hlo/hlo_instruction.h"

namespace systolic::analysis {

std::vector<std::pair<std::string, std::string>> DescribeInstruction(
    const HloInstruction& instruction);

}  // namespace systolic::analysis
