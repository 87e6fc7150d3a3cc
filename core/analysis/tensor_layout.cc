#include "core/analysis/tensor_layout.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic::analysis {

absl::StatusOr<TensorLayout> LayoutTensor(const HloInstruction& instruction, int64_t device_count) {
  const Shape& shape = instruction.shape();
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError("only arrays have one layout across devices");
  }
  const HloSharding sharding = instruction.has_sharding() ? instruction.sharding() : HloSharding::Replicate();
  TensorLayout layout;
  layout.instruction = instruction.name();
  layout.shape = shape.ToString(false);
  layout.sharding = sharding.ToString();
  layout.tensor_dimensions = shape.dimensions();
  layout.tile_grid = TileGridOf(sharding, int64_t(shape.dimensions().size()));
  layout.has_sharding = instruction.has_sharding();
  if (const HloModule* module = instruction.GetModule()) layout.replicas = module->replica_count();
  int64_t tiles = 1;
  for (int64_t t : layout.tile_grid) tiles *= t;
  layout.devices_of_tile.resize(size_t(tiles));
  for (int64_t d = 0; d < device_count; ++d) {
    absl::StatusOr<std::optional<DeviceTile>> tile = TileForDevice(sharding, shape, d);
    if (!tile.ok()) return tile.status();
    TensorLayout::Placement placement;
    if (tile->has_value()) {
      placement.holds = true;
      placement.tile = **tile;
      if (placement.tile.tile_index < tiles) layout.devices_of_tile[size_t(placement.tile.tile_index)].push_back(d);
    }
    layout.devices.push_back(placement);
  }
  for (const auto& holders : layout.devices_of_tile) layout.distinct_tiles += !holders.empty();
  return layout;
}

std::vector<const HloInstruction*> ShardableTensors(const HloModule& module) {
  std::vector<const HloInstruction*> out;
  const HloComputation* entry = module.entry_computation();
  if (!entry) return out;
  for (const HloInstruction* i : entry->MakeInstructionPostOrder()) {
    if (i->shape().IsArray()) out.push_back(i);
  }
  auto rank = [](const HloInstruction* i) {
    if (!i->has_sharding()) return 2;
    return i->opcode() == HloOpcode::kParameter ? 0 : 1;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const HloInstruction* a, const HloInstruction* b) { return rank(a) < rank(b); });
  return out;
}

std::string DescribeTensorLayout(const TensorLayout& layout) {
  const int64_t devices = int64_t(layout.devices.size());
  if (layout.distinct_tiles == 1 && devices > 1) {
    if (layout.replicas > 1 && !layout.has_sharding) {
      return absl::StrCat("Each of the ", layout.replicas, " replicas holds its own ", layout.shape,
                          " (the program runs once per replica; values may differ).");
    }
    return "Every chip holds the whole tensor (replicated).";
  }
  const int64_t copies = devices / std::max<int64_t>(layout.distinct_tiles, 1);
  return absl::StrCat(layout.distinct_tiles, " distinct tiles over ", devices, " chips: ", copies,
                      copies == 1 ? " copy" : " copies", " of each.");
}

int64_t LayoutStageOf(const trace::ProgramRecord& program) {
  for (size_t s = 1; s < program.snapshots.size(); ++s) {
    if (program.snapshots[s].pass_name == "spmd-partitioner") return int64_t(s) - 1;
  }
  return int64_t(program.snapshots.size()) - 1;
}

}  // namespace systolic::analysis
