// How one tensor of a program lies across the chips: for each device the
// tile it holds (core/hlo/sharding_tiles.h), the tile grid, and how many
// distinct tiles there are (fewer than devices: some are replicas). What
// the sharding view draws on the topology.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/sharding_tiles.h"
#include "core/trace/program_record.h"

namespace systolic::analysis {

struct TensorLayout {
  std::string instruction;
  std::string shape;     // "f32[256,1024]"
  std::string sharding;  // "{devices=[1,8]<=[8]}"
  std::vector<int64_t> tensor_dimensions;
  std::vector<int64_t> tile_grid;  // tiles per tensor dimension
  // tiles[d]: the tile of device d; `holds` false where it holds none.
  struct Placement {
    bool holds = false;
    DeviceTile tile;
  };
  std::vector<Placement> devices;
  int64_t distinct_tiles = 0;
  // Devices holding each tile index (size: product of tile_grid).
  std::vector<std::vector<int64_t>> devices_of_tile;
  // Replicas the program runs as (data parallel). A value without a
  // sharding is then each replica's own, not one value copied everywhere.
  int64_t replicas = 1;
  bool has_sharding = false;
};

// One line for the user: how many distinct tiles on how many chips, or that
// every chip holds the whole value (the same one, or each replica its own).
std::string DescribeTensorLayout(const TensorLayout& layout);

// The layout of `instruction`'s array value over `device_count` devices.
// An instruction without a sharding is replicated; tuples are an error.
absl::StatusOr<TensorLayout> LayoutTensor(const HloInstruction& instruction, int64_t device_count);

// Instructions of the entry computation with an array value, those with a
// sharding first (parameters before the rest), then the others.
std::vector<const HloInstruction*> ShardableTensors(const HloModule& module);

// The stage whose shardings say how the program's values lie across the
// chips: for a program the SPMD partitioner rewrote, the one just before it
// (every value laid out, after sharding propagation; afterwards values are
// shards); else the last (what ran). -1 for a program without stages.
int64_t LayoutStageOf(const trace::ProgramRecord& program);

}  // namespace systolic::analysis
