#include "core/compiler/spmd/spmd_builder.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_creation_utils.h"
#include "core/hlo/hlo_module.h"

namespace systolic::spmd {
SpmdBuilder::SpmdBuilder(HloComputation* computation, int64_t num_partitions, int64_t num_replicas,
                         int64_t* next_channel_id, bool laid_out, PassRunLog* log)
    : computation_(computation),
      num_partitions_(num_partitions),
      num_replicas_(num_replicas),
      next_channel_id_(next_channel_id),
      laid_out_(laid_out),
      log_(log) {}

HloInstruction* SpmdBuilder::Add(std::unique_ptr<HloInstruction> instruction) {
  if (laid_out_ && instruction->shape().IsArray() && !instruction->shape().has_layout()) {
    instruction->mutable_shape()->set_layout(Layout::Descending(instruction->shape().rank()));
  }
  if (source_ != nullptr) {
    if (instruction->metadata().empty()) instruction->set_metadata(source_->metadata());
    if (instruction->provenance().empty()) instruction->MergeProvenanceFrom(*source_);
  }
  return computation_->AddInstruction(std::move(instruction));
}

Shape SpmdBuilder::ArrayShape(PrimitiveType type, std::vector<int64_t> dimensions) const {
  Shape shape(type, dimensions);
  if (laid_out_) shape.set_layout(Layout::Descending(shape.rank()));
  return shape;
}

HloInstruction* SpmdBuilder::PerPartition(const std::vector<int64_t>& values) {
  if (auto it = per_partition_.find(values); it != per_partition_.end()) return it->second;
  HloInstruction* result;
  if (std::all_of(values.begin(), values.end(), [&](int64_t v) { return v == values[0]; })) {
    result = Add(HloInstruction::CreateConstant(Literal::CreateR0<int32_t>(int32_t(values[0]))));
  } else {
    if (partition_id_ == nullptr) {
      HloInstruction* id =
          Add(HloInstruction::Create(HloOpcode::kPartitionId, Shape::MakeScalar(U32), {}));
      partition_id_ = Add(HloInstruction::CreateConvert(Shape::MakeScalar(S32), id));
    }
    std::vector<int32_t> table(values.begin(), values.end());
    HloInstruction* constant =
        Add(HloInstruction::CreateConstant(Literal::CreateR1<int32_t>(table)));
    HloInstruction* entry = DynamicSlice(constant, {partition_id_}, {1});
    result = Add(HloInstruction::CreateReshape(Shape::MakeScalar(S32), entry));
  }
  per_partition_[values] = result;
  return result;
}

std::vector<HloInstruction*> SpmdBuilder::Offsets(const ShardingGrid& grid, const Shape& global) {
  std::vector<HloInstruction*> offsets;
  for (int64_t d = 0; d < global.rank(); ++d) {
    std::vector<int64_t> values(num_partitions_);
    for (int64_t p = 0; p < num_partitions_; ++p) values[p] = grid.Offset(p, d, global.dimensions(d));
    offsets.push_back(PerPartition(values));
  }
  return offsets;
}

HloInstruction* SpmdBuilder::ScalarConstant(PrimitiveType type, double value) {
  return Add(HloInstruction::CreateConstant(ScalarLiteral(type, value)));
}

HloInstruction* SpmdBuilder::Broadcast(HloInstruction* scalar, const Shape& shape) {
  return Add(HloInstruction::CreateBroadcast(ArrayShape(scalar->shape().element_type(),
                                                        shape.dimensions()),
                                             scalar, {}));
}

HloInstruction* SpmdBuilder::Resize(HloInstruction* x, const std::vector<int64_t>& sizes) {
  const Shape& shape = x->shape();
  std::vector<int64_t> kept = shape.dimensions();
  bool slice = false, pad = false;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (sizes[d] < kept[d]) {
      kept[d] = sizes[d];
      slice = true;
    } else if (sizes[d] > kept[d]) {
      pad = true;
    }
  }
  if (slice) {
    x = Add(HloInstruction::CreateSlice(ArrayShape(shape.element_type(), kept), x,
                                        std::vector<int64_t>(kept.size(), 0), kept,
                                        std::vector<int64_t>(kept.size(), 1)));
  }
  if (pad) {
    PaddingConfig config;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      config.dimensions.push_back({0, sizes[d] - kept[d], 0});
    }
    HloInstruction* zero = ScalarConstant(shape.element_type(), 0);
    x = Add(HloInstruction::CreatePad(ArrayShape(shape.element_type(), sizes), x, zero, config));
  }
  return x;
}

HloInstruction* SpmdBuilder::DynamicSlice(HloInstruction* x,
                                          const std::vector<HloInstruction*>& offsets,
                                          const std::vector<int64_t>& sizes) {
  std::vector<HloInstruction*> operands = {x};
  operands.insert(operands.end(), offsets.begin(), offsets.end());
  auto slice = HloInstruction::Create(HloOpcode::kDynamicSlice,
                                      ArrayShape(x->shape().element_type(), sizes), operands);
  slice->set_slice_sizes(sizes);
  return Add(std::move(slice));
}

HloInstruction* SpmdBuilder::MaskPadding(HloInstruction* x, const ShardingGrid& grid,
                                         const Shape& global,
                                         const std::vector<int64_t>& dimensions,
                                         HloInstruction* value) {
  const std::vector<int64_t>& local = x->shape().dimensions();
  HloInstruction* inside = nullptr;
  std::vector<HloInstruction*> offsets;
  for (int64_t d : dimensions) {
    const int64_t size = global.dimensions(d);
    if (grid.tiles(d) * grid.ShardSize(d, size) == size) continue;  // even: no padding
    if (offsets.empty()) offsets = Offsets(grid, global);
    HloInstruction* below = IndexWithin(local, d, offsets[d], std::nullopt, size);
    inside = inside == nullptr ? below
                               : Add(HloInstruction::CreateBinary(below->shape(), HloOpcode::kAnd,
                                                                  inside, below));
  }
  return inside == nullptr ? x : SelectOr(inside, x, value);
}

HloInstruction* SpmdBuilder::IndexWithin(const std::vector<int64_t>& dimensions, int64_t dimension,
                                         HloInstruction* first, std::optional<int64_t> begin,
                                         int64_t end) {
  const Shape indices = ArrayShape(S32, dimensions);
  const Shape predicates = ArrayShape(PRED, dimensions);
  HloInstruction* iota = Add(HloInstruction::CreateIota(indices, dimension));
  HloInstruction* offset = Add(HloInstruction::CreateBroadcast(indices, first, {}));
  HloInstruction* index = Add(HloInstruction::CreateBinary(indices, HloOpcode::kAdd, iota, offset));
  auto compare = [&](double bound, ComparisonDirection direction) {
    HloInstruction* limit = Broadcast(ScalarConstant(S32, bound), indices);
    return Add(HloInstruction::CreateCompare(predicates, index, limit, direction));
  };
  HloInstruction* inside = compare(double(end), ComparisonDirection::kLt);
  if (begin) {
    HloInstruction* after = compare(double(*begin), ComparisonDirection::kGe);
    inside = Add(HloInstruction::CreateBinary(predicates, HloOpcode::kAnd, after, inside));
  }
  return inside;
}

HloInstruction* SpmdBuilder::SelectOr(HloInstruction* inside, HloInstruction* x,
                                      HloInstruction* fill) {
  return Add(HloInstruction::CreateTernary(x->shape(), HloOpcode::kSelect, inside, x,
                                           Broadcast(fill, x->shape())));
}

CollectiveDeviceList SpmdBuilder::DeviceGroups(
    const std::vector<std::vector<int64_t>>& groups) const {
  std::vector<std::vector<int64_t>> devices;
  for (int64_t r = 0; r < num_replicas_; ++r) {
    for (const std::vector<int64_t>& group : groups) {
      std::vector<int64_t> ids;
      for (int64_t p : group) ids.push_back(r * num_partitions_ + p);
      devices.push_back(std::move(ids));
    }
  }
  return CollectiveDeviceList(std::move(devices));
}

HloInstruction* SpmdBuilder::AddCollective(std::unique_ptr<HloInstruction> collective) {
  collective->set_channel_id((*next_channel_id_)++);
  const HloOpcode opcode = collective->opcode();
  const bool sums = opcode == HloOpcode::kAllReduce || opcode == HloOpcode::kReduceScatter;
  if (log_ != nullptr) log_->CountRewrite(absl::StrCat("inserted ", HloOpcodeString(opcode)), sums);
  return Add(std::move(collective));
}

HloInstruction* SpmdBuilder::AllGather(HloInstruction* x, int64_t dimension,
                                       const std::vector<std::vector<int64_t>>& groups) {
  std::vector<int64_t> dimensions = x->shape().dimensions();
  dimensions[dimension] *= int64_t(groups.front().size());
  auto gather = HloInstruction::Create(HloOpcode::kAllGather,
                                       ArrayShape(x->shape().element_type(), dimensions), {x});
  gather->set_dimensions({dimension});
  gather->set_device_list(DeviceGroups(groups));
  gather->set_use_global_device_ids(true);
  return AddCollective(std::move(gather));
}

HloInstruction* SpmdBuilder::AllReduce(HloInstruction* x, HloComputation* reducer,
                                       const std::vector<std::vector<int64_t>>& groups) {
  auto reduce = HloInstruction::Create(HloOpcode::kAllReduce, x->shape(), {x});
  reduce->AppendCalledComputation(reducer);
  reduce->set_device_list(DeviceGroups(groups));
  reduce->set_use_global_device_ids(true);
  return AddCollective(std::move(reduce));
}

HloInstruction* SpmdBuilder::ReduceScatter(HloInstruction* x, HloComputation* reducer,
                                           int64_t dimension,
                                           const std::vector<std::vector<int64_t>>& groups) {
  std::vector<int64_t> dimensions = x->shape().dimensions();
  dimensions[dimension] /= int64_t(groups.front().size());
  auto scatter = HloInstruction::Create(HloOpcode::kReduceScatter,
                                        ArrayShape(x->shape().element_type(), dimensions), {x});
  scatter->AppendCalledComputation(reducer);
  scatter->set_dimensions({dimension});
  scatter->set_device_list(DeviceGroups(groups));
  scatter->set_use_global_device_ids(true);
  return AddCollective(std::move(scatter));
}

HloInstruction* SpmdBuilder::AllToAll(HloInstruction* x, int64_t dimension,
                                      const std::vector<std::vector<int64_t>>& groups) {
  auto exchange = HloInstruction::Create(HloOpcode::kAllToAll, x->shape(), {x});
  exchange->set_dimensions({dimension});
  // With a channel and no global ids, groups and pairs name partitions of
  // one replica.
  exchange->set_device_list(CollectiveDeviceList(groups));
  return AddCollective(std::move(exchange));
}

HloInstruction* SpmdBuilder::CollectivePermute(
    HloInstruction* x, const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  auto permute = HloInstruction::Create(HloOpcode::kCollectivePermute, x->shape(), {x});
  permute->set_source_target_pairs(pairs);
  return AddCollective(std::move(permute));
}

}  // namespace systolic::spmd
