#include "core/compiler/spmd/windowed_partitioning.h"

#include <algorithm>

#include "core/hlo/status_macros.h"

namespace systolic::spmd {
namespace {

// One split spatial dimension: where it is in the input and the result,
// and its window.
struct SplitDimension {
  int64_t input = 0;
  int64_t output = 0;
  int64_t window = 0;
};

// Per tile i of a split dimension: the first input row its window needs
// (in unpadded input coordinates) and how many rows the window spans.
struct HaloPlan {
  std::vector<int64_t> start;  // per tile
  int64_t length = 0;
  int64_t left = 0;   // rows taken from the left neighbour
  int64_t right = 0;  // rows taken from the right neighbour
};

std::optional<HaloPlan> PlanHalo(const WindowDimension& w, int64_t tiles, int64_t input_shard,
                                 int64_t output_shard) {
  if (w.base_dilation != 1) return std::nullopt;
  const int64_t extent = (w.size - 1) * w.window_dilation + 1;
  HaloPlan plan;
  plan.length = (output_shard - 1) * w.stride + extent;
  for (int64_t i = 0; i < tiles; ++i) {
    const int64_t start = i * output_shard * w.stride - w.padding_low;
    plan.start.push_back(start);
    plan.left = std::max(plan.left, i * input_shard - start);
    plan.right = std::max(plan.right, start + plan.length - (i + 1) * input_shard);
  }
  if (plan.left > input_shard || plan.right > input_shard) return std::nullopt;
  return plan;
}

HloInstruction* SliceAlong(SpmdBuilder& b, HloInstruction* x, int64_t dimension, int64_t begin,
                           int64_t end) {
  const Shape& shape = x->shape();
  std::vector<int64_t> starts(shape.rank(), 0), limits = shape.dimensions();
  starts[dimension] = begin;
  limits[dimension] = end;
  std::vector<int64_t> sizes = limits;
  sizes[dimension] = end - begin;
  return b.Add(HloInstruction::CreateSlice(b.ArrayShape(shape.element_type(), sizes), x, starts,
                                           limits, std::vector<int64_t>(shape.rank(), 1)));
}

// x's rows along `d` extended into the window each partition needs, rows
// outside the array replaced by `pad`.
HloInstruction* ExchangeHalo(SpmdBuilder& b, HloInstruction* x, const ShardingGrid& grid,
                             int64_t d, int64_t size, const HaloPlan& plan, HloInstruction* pad) {
  const int64_t shard = x->shape().dimensions(d);
  const auto groups = grid.GroupsAlong({d});
  std::vector<HloInstruction*> pieces;
  if (plan.left > 0) {
    std::vector<std::pair<int64_t, int64_t>> to_right;
    for (const auto& g : groups) {
      for (size_t j = 0; j + 1 < g.size(); ++j) to_right.emplace_back(g[j], g[j + 1]);
    }
    pieces.push_back(b.CollectivePermute(SliceAlong(b, x, d, shard - plan.left, shard), to_right));
  }
  pieces.push_back(x);
  if (plan.right > 0) {
    std::vector<std::pair<int64_t, int64_t>> to_left;
    for (const auto& g : groups) {
      for (size_t j = 0; j + 1 < g.size(); ++j) to_left.emplace_back(g[j + 1], g[j]);
    }
    pieces.push_back(b.CollectivePermute(SliceAlong(b, x, d, 0, plan.right), to_left));
  }
  HloInstruction* joined = x;
  if (pieces.size() > 1) {
    std::vector<int64_t> dims = x->shape().dimensions();
    dims[d] = plan.left + shard + plan.right;
    joined = b.Add(HloInstruction::CreateConcatenate(
        b.ArrayShape(x->shape().element_type(), dims), pieces, d));
  }
  const int64_t partitions = grid.num_partitions();
  std::vector<int64_t> offset(partitions), start(partitions);
  for (int64_t p = 0; p < partitions; ++p) {
    const int64_t i = grid.Coordinate(p, d);
    start[p] = plan.start[i];
    offset[p] = plan.left - (i * shard - plan.start[i]);
  }
  std::vector<HloInstruction*> offsets(x->shape().rank(), b.PerPartition(std::vector<int64_t>(partitions, 0)));
  offsets[d] = b.PerPartition(offset);
  std::vector<int64_t> sizes = x->shape().dimensions();
  sizes[d] = plan.length;
  HloInstruction* window = b.DynamicSlice(joined, offsets, sizes);
  // Rows before the array's start or past its end hold the padding value.
  HloInstruction* inside = b.IndexWithin(sizes, d, b.PerPartition(start), 0, size);
  return b.SelectOr(inside, window, pad);
}

}  // namespace

absl::StatusOr<std::optional<HloInstruction*>> PartitionWindowed(SpmdBuilder& b,
                                                                 const HloInstruction& op,
                                                                 const PartitionedArray& input,
                                                                 const PartitionedArray& second,
                                                                 const ShardingGrid& result) {
  const bool convolution = op.opcode() == HloOpcode::kConvolution;
  const int64_t rank = input.global.rank();
  std::vector<std::vector<int64_t>> input_sources(rank);
  std::vector<std::vector<int64_t>> second_sources(second.global.rank());
  std::vector<SplitDimension> split;
  if (convolution) {
    const ConvolutionDimensionNumbers& n = op.convolution_dimension_numbers();
    const bool features_split = result.tiles(n.output_feature_dimension) > 1;
    const bool batch_split = result.tiles(n.output_batch_dimension) > 1;
    if ((op.feature_group_count() > 1 && features_split) ||
        (op.batch_group_count() > 1 && (features_split || batch_split))) {
      return std::nullopt;
    }
    input_sources[n.input_batch_dimension] = {n.output_batch_dimension};
    second_sources[n.kernel_output_feature_dimension] = {n.output_feature_dimension};
    for (size_t k = 0; k < n.input_spatial_dimensions.size(); ++k) {
      input_sources[n.input_spatial_dimensions[k]] = {n.output_spatial_dimensions[k]};
      if (result.tiles(n.output_spatial_dimensions[k]) > 1) {
        split.push_back({n.input_spatial_dimensions[k], n.output_spatial_dimensions[k], int64_t(k)});
      }
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      input_sources[d] = {d};
      if (result.tiles(d) > 1) split.push_back({d, d, d});
    }
  }
  const ShardingGrid input_grid = result.Regroup(input_sources);
  const ShardingGrid second_grid = result.Regroup(second_sources);
  Window window = op.window();
  std::vector<HaloPlan> plans;
  for (const SplitDimension& s : split) {
    const WindowDimension& w = window.dimensions[s.window];
    const int64_t tiles = result.tiles(s.output);
    auto plan = PlanHalo(w, tiles, input_grid.ShardSize(s.input, input.global.dimensions(s.input)),
                         result.ShardSize(s.output, op.shape().dimensions(s.output)));
    if (!plan) return std::nullopt;
    plans.push_back(*plan);
  }
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * x, Reshard(b, input, input_grid));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * y, Reshard(b, second, second_grid));
  HloInstruction* pad = convolution ? b.ScalarConstant(x->shape().element_type(), 0) : y;
  for (size_t k = 0; k < split.size(); ++k) {
    x = ExchangeHalo(b, x, input_grid, split[k].input, input.global.dimensions(split[k].input),
                     plans[k], pad);
    WindowDimension& w = window.dimensions[split[k].window];
    w.padding_low = 0;
    w.padding_high = 0;
  }
  const Shape local = b.ArrayShape(op.shape().element_type(), ShardDimensions(result, op.shape()));
  HloInstruction* partitioned = b.Add(op.CloneWithNewOperands(local, {x, y}));
  partitioned->set_window(window);
  partitioned->clear_sharding();
  return partitioned;
}

}  // namespace systolic::spmd
