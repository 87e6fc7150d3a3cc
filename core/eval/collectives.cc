#include "core/eval/collectives.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/eval/collective_rendezvous.h"
#include "core/eval/shape_ops.h"

namespace systolic::eval {
namespace {

enum class GroupMode { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedId };

bool HasGlobalIdsAttribute(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}

bool IsPermute(HloOpcode op) {
  return op == HloOpcode::kCollectivePermute || op == HloOpcode::kCollectivePermuteStart;
}

GroupMode ModeOf(const HloInstruction& instr) {
  const bool channel = instr.channel_id().has_value();
  if (instr.use_global_device_ids()) return GroupMode::kFlattenedId;
  if (!channel) return GroupMode::kCrossReplica;
  return HasGlobalIdsAttribute(instr.opcode()) ? GroupMode::kCrossReplicaAndPartition
                                               : GroupMode::kCrossPartition;
}

// The group of `groups` holding `id`, or every id below `count` when there
// are no groups.
absl::StatusOr<std::vector<int64_t>> GroupOf(const std::vector<std::vector<int64_t>>& groups,
                                             int64_t id, int64_t count, absl::string_view what) {
  if (groups.empty()) {
    std::vector<int64_t> all;
    for (int64_t i = 0; i < count; ++i) all.push_back(i);
    return all;
  }
  for (const auto& group : groups) {
    for (int64_t member : group) {
      if (member < 0 || member >= count) {
        return absl::InvalidArgumentError(absl::StrCat("replica_groups name ", what, " ", member,
                                                       ", but there are ", count));
      }
    }
    if (std::find(group.begin(), group.end(), id) != group.end()) return group;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(what, " ", id, " is in none of the replica_groups"));
}

// contribution p's operand i.
const Literal& OperandOf(const Literal& contribution, size_t i, size_t operand_count) {
  return operand_count == 1 ? contribution : contribution.tuple_element(int64_t(i));
}

Literal Pack(std::vector<Literal> values, const Shape& shape) {
  if (!shape.IsTuple() && values.size() == 1) return std::move(values[0]);
  return Literal::MakeTuple(std::move(values));
}

// acc = reducer(acc, x) elementwise.
absl::Status Accumulate(Literal& acc, const Literal& x, ScalarFunction& reducer) {
  if (x.shape().dimensions() != acc.shape().dimensions() || x.element_type() != acc.element_type()) {
    return absl::InvalidArgumentError(absl::StrCat("devices contribute different shapes: ",
                                                   acc.shape().ToString(), " and ",
                                                   x.shape().ToString()));
  }
  const int64_t n = acc.element_count();
  void* a = acc.untyped_data();
  const void* b = x.untyped_data();
  if (const ElementwiseKernel* kernel = reducer.binary_kernel()) {
    const void* ins[2] = {reducer.binary_swapped() ? b : a, reducer.binary_swapped() ? a : b};
    kernel->Run(ins, a, n);
    return absl::OkStatus();
  }
  const int64_t width = primitive_util::ByteWidth(acc.element_type());
  for (int64_t i = 0; i < n; ++i) {
    void* ai = static_cast<uint8_t*>(a) + i * width;
    const void* args[2] = {ai, static_cast<const uint8_t*>(b) + i * width};
    void* results[1] = {ai};
    if (auto s = reducer.Call(args, results); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> ReduceAll(const std::vector<Literal>& contributions, size_t i,
                                  size_t operand_count, ScalarFunction* reducer) {
  if (reducer == nullptr) return absl::InvalidArgumentError("the collective needs a reducer");
  Literal acc = OperandOf(contributions[0], i, operand_count).Clone();
  for (size_t p = 1; p < contributions.size(); ++p) {
    if (auto s = Accumulate(acc, OperandOf(contributions[p], i, operand_count), *reducer); !s.ok()) {
      return s;
    }
  }
  return acc;
}

absl::StatusOr<Literal> SliceAlong(const Literal& l, int64_t dimension, int64_t index,
                                   int64_t pieces) {
  const Shape& s = l.shape();
  if (dimension < 0 || dimension >= s.rank() || pieces <= 0 || s.dimensions(dimension) % pieces) {
    return absl::InvalidArgumentError(absl::StrCat("cannot split ", s.ToString(), " in ", pieces,
                                                   " along dimension ", dimension));
  }
  const int64_t size = s.dimensions(dimension) / pieces;
  std::vector<int64_t> starts(s.rank(), 0), limits = s.dimensions(), strides(s.rank(), 1);
  starts[dimension] = index * size;
  limits[dimension] = (index + 1) * size;
  return Slice(l, starts, limits, strides);
}

}  // namespace

CollectiveIdSpace IdSpaceOf(const HloInstruction& instruction) {
  switch (ModeOf(instruction)) {
    case GroupMode::kCrossPartition:
      return CollectiveIdSpace::kPartitions;
    case GroupMode::kFlattenedId:
      return IsPermute(instruction.opcode()) ? CollectiveIdSpace::kPartitions
                                             : CollectiveIdSpace::kDevices;
    default:
      return CollectiveIdSpace::kReplicas;
  }
}

absl::StatusOr<std::vector<int64_t>> CollectiveParticipants(const HloInstruction& instruction,
                                                            const DeviceContext& device) {
  const int64_t P = device.partition_count, R = device.replica_count;
  const auto& groups = instruction.replica_groups();
  const GroupMode mode = ModeOf(instruction);
  std::vector<int64_t> out;
  if (IsPermute(instruction.opcode())) {
    // Every device of the permutation's domain takes part.
    if (mode == GroupMode::kCrossPartition) {
      for (int64_t p = 0; p < P; ++p) out.push_back(device.replica_id * P + p);
    } else {
      for (int64_t r = 0; r < R; ++r) out.push_back(r * P + device.partition_id);
    }
    return out;
  }
  switch (mode) {
    case GroupMode::kCrossReplica: {
      auto group = GroupOf(groups, device.replica_id, R, "replica");
      if (!group.ok()) return group.status();
      for (int64_t r : *group) out.push_back(r * P + device.partition_id);
      break;
    }
    case GroupMode::kCrossPartition: {
      auto group = GroupOf(groups, device.partition_id, P, "partition");
      if (!group.ok()) return group.status();
      for (int64_t p : *group) out.push_back(device.replica_id * P + p);
      break;
    }
    case GroupMode::kCrossReplicaAndPartition: {
      auto group = GroupOf(groups, device.replica_id, R, "replica");
      if (!group.ok()) return group.status();
      // Partition-major: every partition's copy of the replica group in turn.
      for (int64_t p = 0; p < P; ++p) {
        for (int64_t r : *group) out.push_back(r * P + p);
      }
      break;
    }
    case GroupMode::kFlattenedId: {
      auto group = GroupOf(groups, device.device_id(), R * P, "device");
      if (!group.ok()) return group.status();
      out = *group;
      break;
    }
  }
  return out;
}

absl::StatusOr<Literal> EvaluateCollective(const HloInstruction& instruction,
                                           absl::Span<const Literal* const> operands,
                                           const DeviceContext& device, int64_t execution,
                                           ScalarFunction* reducer) {
  const HloOpcode op = instruction.opcode();
  if (operands.empty()) return absl::InvalidArgumentError("the collective has no operands");
  auto participants = CollectiveParticipants(instruction, device);
  if (!participants.ok()) return participants.status();
  const int64_t me = device.device_id();
  const auto position = std::find(participants->begin(), participants->end(), me);
  if (position == participants->end()) {
    return absl::InvalidArgumentError(absl::StrCat("device ", me, " is not in its own group"));
  }
  const size_t my_index = size_t(position - participants->begin());
  const size_t group_size = participants->size();

  // Exchange the operands (one literal, a tuple when there are several).
  std::vector<Literal> mine;
  for (const Literal* l : operands) mine.push_back(l->Clone());
  Literal contribution =
      mine.size() == 1 ? std::move(mine[0]) : Literal::MakeTuple(std::move(mine));
  std::shared_ptr<const std::vector<Literal>> all;
  if (device.rendezvous == nullptr) {
    if (group_size != 1) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the collective needs devices {", absl::StrJoin(*participants, ","),
          "}: run the module on ", device.replica_count, " replicas x ", device.partition_count,
          " partitions with EvaluateSpmd"));
    }
    auto single = std::make_shared<std::vector<Literal>>();
    single->push_back(std::move(contribution));
    all = std::move(single);
  } else {
    const std::string key = absl::StrCat(instruction.name(), "#", instruction.unique_id(), "@",
                                         execution, "{", absl::StrJoin(*participants, ","), "}");
    auto exchanged = device.rendezvous->Exchange(key, *participants, me, std::move(contribution));
    if (!exchanged.ok()) return exchanged.status();
    all = *std::move(exchanged);
  }
  const std::vector<Literal>& c = *all;
  const size_t n = operands.size();
  const Shape& shape = instruction.shape();
  std::vector<Literal> results;

  switch (op) {
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
      for (size_t i = 0; i < n; ++i) {
        auto r = ReduceAll(c, i, n, reducer);
        if (!r.ok()) return r.status();
        results.push_back(*std::move(r));
      }
      return Pack(std::move(results), shape);
    case HloOpcode::kReduceScatter:
      for (size_t i = 0; i < n; ++i) {
        auto r = ReduceAll(c, i, n, reducer);
        if (!r.ok()) return r.status();
        auto piece = SliceAlong(*r, instruction.dimensions(0), int64_t(my_index), int64_t(group_size));
        if (!piece.ok()) return piece.status();
        results.push_back(*std::move(piece));
      }
      return Pack(std::move(results), shape);
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
      for (size_t i = 0; i < n; ++i) {
        std::vector<const Literal*> parts;
        for (const Literal& l : c) parts.push_back(&OperandOf(l, i, n));
        auto g = Concatenate(parts, instruction.dimensions(0));
        if (!g.ok()) return g.status();
        results.push_back(*std::move(g));
      }
      if (op == HloOpcode::kAllGatherStart) {
        return results.size() == 1 ? std::move(results[0]) : Literal::MakeTuple(std::move(results));
      }
      return Pack(std::move(results), shape);
    case HloOpcode::kAllToAll: {
      if (!instruction.dimensions().empty()) {
        // Array form: split along the dimension, chunk j to participant j,
        // received chunks concatenated in group order.
        const int64_t d = instruction.dimensions(0);
        std::vector<Literal> chunks;
        for (const Literal& l : c) {
          auto piece = SliceAlong(OperandOf(l, 0, n), d, int64_t(my_index), int64_t(group_size));
          if (!piece.ok()) return piece.status();
          chunks.push_back(*std::move(piece));
        }
        std::vector<const Literal*> parts;
        for (const Literal& l : chunks) parts.push_back(&l);
        return Concatenate(parts, d);
      }
      if (n != group_size) {
        return absl::InvalidArgumentError(absl::StrCat("all-to-all has ", n,
                                                       " operands for a group of ", group_size));
      }
      for (const Literal& l : c) results.push_back(OperandOf(l, my_index, n).Clone());
      return Pack(std::move(results), shape);
    }
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart: {
      if (n != 1) {
        return absl::UnimplementedError("in-place collective-permute is not supported");
      }
      const bool cross_partition = ModeOf(instruction) == GroupMode::kCrossPartition;
      const int64_t my_id = cross_partition ? device.partition_id : device.replica_id;
      for (const auto& [source, target] : instruction.source_target_pairs()) {
        if (source < 0 || source >= int64_t(group_size) || target < 0 ||
            target >= int64_t(group_size)) {
          return absl::InvalidArgumentError(absl::StrCat("source_target_pairs name {", source, ",",
                                                         target, "} outside ", group_size,
                                                         " devices"));
        }
        if (target == my_id) return c[size_t(source)].Clone();
      }
      return ZeroLiteral(operands[0]->shape());
    }
    case HloOpcode::kCollectiveBroadcast:
      for (size_t i = 0; i < n; ++i) results.push_back(OperandOf(c[0], i, n).Clone());
      return Pack(std::move(results), shape);
    default:
      return absl::UnimplementedError(
          absl::StrCat(HloOpcodeString(op), " is not a collective the evaluator runs"));
  }
}

}  // namespace systolic::eval
