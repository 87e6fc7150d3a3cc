// Which two pass stages of a program the graph view compares first: the
// module just before fusion and just after it, or else the input and the
// final module.
#pragma once

#include <cstdint>

#include "core/trace/program_record.h"

namespace systolic::analysis {

struct StagePair {
  int64_t before = -1;  // snapshot index, -1 when the program has none
  int64_t after = -1;   // -1 when there is a single stage to show
};

StagePair DefaultStagePair(const trace::ProgramRecord& program);

}  // namespace systolic::analysis
