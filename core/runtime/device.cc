#include "core/runtime/device.h"

#include "core/hlo/status_macros.h"

namespace systolic::runtime {

absl::StatusOr<MemoryStats> Device::memory_stats() const {
  SYSTOLIC_Device_MemoryStats_Args args{};
  args.struct_size = SYSTOLIC_Device_MemoryStats_Args_STRUCT_SIZE;
  args.device = device_;
  SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(plugin_->api()->Device_MemoryStats(&args)));
  MemoryStats stats;
  stats.bytes_in_use = args.bytes_in_use;
  stats.peak_bytes_in_use = args.peak_bytes_in_use;
  stats.bytes_limit = args.bytes_limit;
  stats.num_allocs = args.num_allocs;
  stats.largest_alloc_size = args.largest_alloc_size;
  return stats;
}

}  // namespace systolic::runtime
