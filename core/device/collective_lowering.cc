#include "core/device/collective_lowering.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "core/compiler/shape_size.h"
#include "core/eval/collectives.h"
#include "core/eval/device_context.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

std::optional<IciCollective> CollectiveOf(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
      return IciCollective::kAllReduce;
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
      return IciCollective::kAllGather;
    case HloOpcode::kReduceScatter:
      return IciCollective::kReduceScatter;
    case HloOpcode::kAllToAll:
      return IciCollective::kAllToAll;
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
      return IciCollective::kCollectivePermute;
    default:
      return std::nullopt;
  }
}

// Each device's buffer as ici_collectives.h counts it: the all-gather
// result, else the operands.
int64_t BufferBytes(const HloInstruction& instr, IciCollective collective) {
  if (collective == IciCollective::kAllGather) {
    const Shape& result = instr.shape();
    // all-gather-start gives (operands, results).
    if (instr.opcode() == HloOpcode::kAllGatherStart && result.IsTuple() &&
        result.tuple_shapes_size() == 2) {
      return ByteSizeOf(result.tuple_shapes(1));
    }
    return ByteSizeOf(result);
  }
  int64_t bytes = 0;
  for (const HloInstruction* op : instr.operands()) bytes += ByteSizeOf(op->shape());
  return bytes;
}

// Appends `more` to `all`, shifting its dependencies past what is there.
void Append(std::vector<IciTransfer> more, std::vector<IciTransfer>* all) {
  const int offset = int(all->size());
  for (IciTransfer& t : more) {
    for (int& d : t.after) d += offset;
    all->push_back(std::move(t));
  }
}

absl::Status CheckFits(int64_t replicas, int64_t partitions, const IciTopology& topology) {
  if (replicas * partitions > topology.chip_count()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the module runs on ", replicas * partitions, " devices (", replicas, " replicas x ",
        partitions, " partitions); the ", topology.ShapeString(), " slice has ",
        topology.chip_count(), " chips"));
  }
  return absl::OkStatus();
}

bool WithinOneSlice(const std::vector<int64_t>& group, const IciTopology& topology) {
  for (int64_t chip : group) {
    if (topology.SliceOf(chip) != topology.SliceOf(group.front())) return false;
  }
  return true;
}

bool OneChipPerSlice(const std::vector<int64_t>& group, const IciTopology& topology) {
  std::set<int64_t> slices;
  for (int64_t chip : group) {
    if (!slices.insert(topology.SliceOf(chip)).second) return false;
  }
  return true;
}

// The groups whose transfers stand for all of them. On one slice, every
// group. Across slices, groups in different slices share no link, so when
// every slice holds the same groups, the first slice's stand for the
// others; and groups of one chip per slice use only their own chips' DCN
// links, so one such group stands for the rest when all are the same size.
std::vector<std::vector<int64_t>> RepresentativeGroups(
    const std::set<std::vector<int64_t>>& groups, const IciTopology& topology) {
  std::vector<std::vector<int64_t>> all(groups.begin(), groups.end());
  if (topology.slices() == 1 || all.empty()) return all;
  const int64_t per_slice = topology.chips_per_slice();
  bool within = true, across = true;
  for (const std::vector<int64_t>& group : all) {
    within = within && WithinOneSlice(group, topology);
    across = across && OneChipPerSlice(group, topology) && group.size() == all.front().size();
  }
  if (within) {
    std::set<std::vector<int64_t>> first;
    for (const std::vector<int64_t>& group : all) {
      if (topology.SliceOf(group.front()) == 0) first.insert(group);
    }
    bool alike = first.size() * size_t(topology.slices()) == all.size();
    for (const std::vector<int64_t>& group : all) {
      if (!alike) break;
      std::vector<int64_t> shifted = group;
      const int64_t base = topology.SliceOf(group.front()) * per_slice;
      for (int64_t& chip : shifted) chip -= base;
      alike = first.count(shifted) > 0;
    }
    if (alike) return {first.begin(), first.end()};
  }
  if (across) return {all.front()};
  return all;
}

// The first slice's link traffic copied onto the same links of every other
// slice, when the first slice's groups stood for theirs (each slice's links
// are made in the same order, so the same link is a fixed stride away).
void CopyFirstSliceTraffic(const IciTopology& topology, IciSimulation& simulation) {
  const size_t per_slice = topology.links().size() / size_t(topology.slices());
  for (size_t link = 0; link < per_slice; ++link) {
    if (topology.links()[link].axis == kDcnAxis) continue;
    for (int64_t slice = 1; slice < topology.slices(); ++slice) {
      const size_t same = link + size_t(slice) * per_slice;
      if (same < simulation.link_bytes.size()) simulation.link_bytes[same] = simulation.link_bytes[link];
      if (same < simulation.link_busy_seconds.size()) {
        simulation.link_busy_seconds[same] = simulation.link_busy_seconds[link];
      }
    }
  }
}

}  // namespace

absl::StatusOr<CollectiveTiming> TimeCollective(const HloInstruction& instruction,
                                                const IciTopology& topology,
                                                const SpmdDeviceCounts& devices) {
  const std::optional<IciCollective> collective = CollectiveOf(instruction.opcode());
  if (!collective) {
    return absl::InvalidArgumentError(
        absl::StrCat("%", instruction.name(), " is not a collective the ICI model times"));
  }
  const HloInstruction* instr = &instruction;
  const int64_t replicas = std::max<int64_t>(1, devices.replicas);
  const int64_t partitions = std::max<int64_t>(1, devices.partitions);
  SYSTOLIC_RETURN_IF_ERROR(CheckFits(replicas, partitions, topology));
  // The distinct groups the devices form for this instruction.
  std::set<std::vector<int64_t>> groups;
  for (int64_t r = 0; r < replicas; ++r) {
    for (int64_t p = 0; p < partitions; ++p) {
      eval::DeviceContext device;
      device.replica_id = r;
      device.partition_id = p;
      device.replica_count = replicas;
      device.partition_count = partitions;
      auto participants = eval::CollectiveParticipants(*instr, device);
      if (!participants.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("%", instr->name(), ": ", participants.status().message()));
      }
      groups.insert(*std::move(participants));
    }
  }
  CollectiveTiming timing;
  timing.instruction = instr->name();
  timing.computation = instruction.parent() != nullptr ? instruction.parent()->name() : "";
  timing.collective = *collective;
  timing.bytes = BufferBytes(*instr, *collective);
  timing.groups = int64_t(groups.size());
  std::vector<IciTransfer> transfers;
  const std::vector<std::vector<int64_t>> simulated = RepresentativeGroups(groups, topology);
  // A group of every chip of the (first) slice runs axis by axis.
  const bool whole_slice = simulated.size() == 1 &&
                           int64_t(simulated.front().size()) == topology.chips_per_slice() &&
                           topology.chips_per_slice() > 1 &&
                           WithinOneSlice(simulated.front(), topology) &&
                           topology.SliceOf(simulated.front().front()) == 0;
  for (const std::vector<int64_t>& group : simulated) {
    if (whole_slice && (*collective == IciCollective::kAllReduce ||
                        *collective == IciCollective::kAllGather ||
                        *collective == IciCollective::kReduceScatter)) {
      Append(TorusCollective(topology, *collective, timing.bytes), &transfers);
      continue;
    }
    switch (*collective) {
      case IciCollective::kAllReduce:
      case IciCollective::kAllGather:
      case IciCollective::kReduceScatter:
        Append(BidirectionalRingCollective(group, *collective, timing.bytes), &transfers);
        break;
      case IciCollective::kAllToAll:
        Append(DirectAllToAll(group, timing.bytes), &transfers);
        break;
      case IciCollective::kCollectivePermute: {
        // Pairs name positions in the group.
        std::vector<std::pair<int64_t, int64_t>> pairs;
        for (const auto& [source, target] : instr->source_target_pairs()) {
          if (source >= 0 && target >= 0 && source < int64_t(group.size()) &&
              target < int64_t(group.size()) && source != target) {
            pairs.push_back({group[size_t(source)], group[size_t(target)]});
          }
        }
        Append(DirectCollectivePermute(pairs, timing.bytes), &transfers);
        break;
      }
    }
  }
  auto simulation = SimulateIciTransfers(topology, transfers);
  if (!simulation.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("%", instr->name(), ": ", simulation.status().message()));
  }
  if (topology.slices() > 1 && simulated.size() < groups.size() &&
      WithinOneSlice(simulated.front(), topology)) {
    CopyFirstSliceTraffic(topology, *simulation);
  }
  timing.transfers = std::move(transfers);
  timing.simulation = *std::move(simulation);
  return timing;
}

absl::StatusOr<std::vector<CollectiveTiming>> TimeModuleCollectives(
    const HloModule& module, const IciTopology& topology, std::optional<SpmdDeviceCounts> devices) {
  // A module from a pass test may name more devices in its groups than its
  // header says: count what it uses, as the evaluator does.
  const SpmdDeviceCounts counts = devices ? *devices : RequiredDeviceCounts(module);
  SYSTOLIC_RETURN_IF_ERROR(CheckFits(std::max<int64_t>(1, counts.replicas),
                                     std::max<int64_t>(1, counts.partitions), topology));
  std::vector<CollectiveTiming> out;
  for (const HloComputation* computation : module.MakeComputationPostOrder()) {
    for (const HloInstruction* instr : computation->MakeInstructionPostOrder()) {
      if (!CollectiveOf(instr->opcode())) continue;
      SYSTOLIC_ASSIGN_OR_RETURN(CollectiveTiming timing, TimeCollective(*instr, topology, counts));
      out.push_back(std::move(timing));
    }
  }
  return out;
}

}  // namespace systolic::device
