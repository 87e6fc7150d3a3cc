#include "core/compiler/spmd/spmd_pipeline.h"

#include "core/compiler/spmd/sharding_propagation.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/hlo/status_macros.h"

namespace systolic {

std::unique_ptr<HloPassPipeline> MakeSpmdPipeline(int64_t num_partitions) {
  auto pipeline = std::make_unique<HloPassPipeline>("spmd");
  pipeline->AddPass<ShardingPropagation>();
  pipeline->AddPass<SpmdPartitioner>(num_partitions);
  return pipeline;
}

absl::StatusOr<bool> PartitionForSpmd(HloModule* module, int64_t num_partitions) {
  if (!SpmdPartitioner::NeedsPartitioning(*module, num_partitions)) return false;
  if (num_partitions > 0) module->set_num_partitions(num_partitions);
  SYSTOLIC_RETURN_IF_ERROR(MakeSpmdPipeline()->Run(module).status());
  return true;
}

}  // namespace systolic
