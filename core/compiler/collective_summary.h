// The collectives of a compiled program, listed for reports (`systolic
// compile --stats`): what each moves per partition, over how many groups,
// and which of the user's operations it serves (its op_name).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/hlo_module.h"

namespace systolic {

struct CollectiveSummary {
  std::string instruction;  // "all-reduce.3"
  std::string opcode;       // "all-reduce" (a -start counts as its collective)
  int64_t bytes = 0;        // the larger of what one device sends or receives
  int64_t groups = 0;       // replica groups (source-target pairs for a permute)
  std::string op_name;      // from the metadata, "" when none
};

// Every collective of every computation, in program order.
std::vector<CollectiveSummary> SummariseCollectives(const HloModule& module);

}  // namespace systolic
