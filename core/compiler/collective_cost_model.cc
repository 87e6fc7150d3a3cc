#include "core/compiler/collective_cost_model.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/compiler/async_collectives.h"
#include "core/compiler/shape_size.h"
#include "core/eval/collectives.h"
#include "core/eval/device_context.h"

namespace systolic {
namespace {

// Each device's buffer: the gathered result of an all-gather (the second
// element of an all-gather-start), the operands otherwise.
int64_t BufferBytes(const HloInstruction& collective, HloOpcode kind) {
  if (kind == HloOpcode::kAllGather) {
    const Shape& shape = collective.shape();
    if (collective.opcode() == HloOpcode::kAllGatherStart && shape.IsTuple() &&
        shape.tuple_shapes_size() == 2) {
      return ByteSizeOf(shape.tuple_shapes(1));
    }
    return ByteSizeOf(shape);
  }
  int64_t bytes = 0;
  for (const HloInstruction* op : collective.operands()) bytes += ByteSizeOf(op->shape());
  return bytes;
}

}  // namespace

absl::StatusOr<double> AlphaBetaCollectiveCostModel::EstimateSeconds(
    const HloInstruction& collective, const SpmdDeviceCounts& devices) const {
  const std::optional<HloOpcode> kind = CollectiveKindOf(collective);
  if (!kind) {
    return absl::InvalidArgumentError(absl::StrCat("%", collective.name(), " is no collective"));
  }
  // Device 0's group stands for all of them: groups of one collective are
  // equally large.
  eval::DeviceContext device;
  device.replica_count = devices.replicas;
  device.partition_count = devices.partitions;
  auto participants = eval::CollectiveParticipants(collective, device);
  if (!participants.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("%", collective.name(), ": ", participants.status().message()));
  }
  const double n = double(participants->size());
  const double bytes = double(BufferBytes(collective, *kind));
  const double step = p_.link_latency_seconds + bytes / (n * p_.link_bytes_per_second);
  if (*kind == HloOpcode::kCollectivePermute) {
    return p_.link_latency_seconds + bytes / p_.link_bytes_per_second;
  }
  if (n <= 1) return 0.0;
  const double steps = *kind == HloOpcode::kAllReduce ? 2 * (n - 1) : n - 1;
  return steps * step;
}

}  // namespace systolic
