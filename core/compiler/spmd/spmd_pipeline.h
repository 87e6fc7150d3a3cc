// The SPMD stage of compilation, shared by the compiler's pipeline and by
// whatever must run a sharded module on its partitions (the runtime's
// plugins, the lazy front end's evaluator backend): sharding propagation,
// then the partitioner.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "core/compiler/hlo_pass_pipeline.h"
#include "core/hlo/hlo_module.h"

namespace systolic {

// The "spmd" pipeline; `num_partitions` 0: the module's.
std::unique_ptr<HloPassPipeline> MakeSpmdPipeline(int64_t num_partitions = 0);

// Rewrites `module` into the program each of its `num_partitions` (0: the
// module's own count) runs, when it needs partitioning; the module then
// says that many partitions. Returns whether it did.
absl::StatusOr<bool> PartitionForSpmd(HloModule* module, int64_t num_partitions = 0);

}  // namespace systolic
