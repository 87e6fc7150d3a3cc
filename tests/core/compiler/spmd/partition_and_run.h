// The SPMD tests' common check: propagate shardings, partition, verify, run
// the partitioned program on its partitions with the shards of random whole
// arguments, and compare the gathered result with the unpartitioned
// evaluation.
#pragma once

#include <memory>
#include <string>

#include "core/hlo/hlo_module.h"

namespace systolic::testing {

struct Partitioned {
  std::unique_ptr<HloModule> module;  // the partitioned module
  std::string mismatch;               // "" when the results agree
};

// `evaluate` false: partition and verify only (for modules the host cannot
// run: infeed, or too large).
Partitioned PartitionAndRun(const HloModule& original, int64_t partitions,
                            double tolerance = 1e-4, bool evaluate = true);
Partitioned PartitionAndRun(const std::string& text, int64_t partitions);

}  // namespace systolic::testing

#define EXPECT_SAME_RESULTS(run) \
  EXPECT_EQ((run).mismatch, "") << ((run).module ? (run).module->ToString() : "")
