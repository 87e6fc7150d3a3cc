// Values of the collective opcodes over replicas x partitions, with XLA's
// group modes:
//   no channel_id                       -> cross-replica (groups of replica ids)
//   channel_id, use_global_device_ids   -> flattened ids (replica * partitions + partition)
//   channel_id without it: all-reduce, all-gather and reduce-scatter are
//     cross-replica-and-partition (replica groups, every partition of each);
//     all-to-all, collective-permute and collective-broadcast are
//     cross-partition (groups of partition ids).
// Empty replica groups mean one group of every device of the mode. Reductions
// combine the contributions in group order.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/device_context.h"
#include "core/eval/scalar_function.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

// What the ids in a collective's replica_groups / source_target_pairs count:
// replicas (cross-replica, and cross-replica-and-partition), partitions
// (cross-partition) or flattened device ids.
enum class CollectiveIdSpace { kReplicas, kPartitions, kDevices };
CollectiveIdSpace IdSpaceOf(const HloInstruction& instruction);

// Global ids of the devices that run one execution of `instruction` together
// with `device`, in group order.
absl::StatusOr<std::vector<int64_t>> CollectiveParticipants(const HloInstruction& instruction,
                                                            const DeviceContext& device);

// The synchronous result of all-reduce, all-gather, reduce-scatter,
// all-to-all, collective-permute or collective-broadcast (or of their -start
// forms' collective) for this device. `execution` counts earlier executions
// of the instruction on this device (loops), so rounds match up. `reducer`
// is needed by all-reduce and reduce-scatter.
absl::StatusOr<Literal> EvaluateCollective(const HloInstruction& instruction,
                                           absl::Span<const Literal* const> operands,
                                           const DeviceContext& device, int64_t execution,
                                           ScalarFunction* reducer);

}  // namespace systolic::eval
