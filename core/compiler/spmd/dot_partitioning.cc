#include "core/compiler/spmd/dot_partitioning.h"

#include <algorithm>
#include <limits>

#include "core/compiler/hlo_creation_utils.h"
#include "core/compiler/provenance.h"
#include "core/compiler/shape_size.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/status_macros.h"

namespace systolic::spmd {
namespace {

// Where each operand dimension sits in the iteration space
// [batch..., lhs rows..., rhs columns..., contracting...]; the result's
// dimensions are the space's first ones, in order.
struct DotSpace {
  std::vector<int64_t> lhs;  // per lhs dimension
  std::vector<int64_t> rhs;  // per rhs dimension
  std::vector<int64_t> contracting;
  int64_t result_rank = 0;
  int64_t rank = 0;
};

std::vector<int64_t> FreeDimensions(int64_t rank, const std::vector<int64_t>& batch,
                                    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

DotSpace SpaceOf(const HloInstruction& dot) {
  const DotDimensionNumbers& n = dot.dot_dimension_numbers();
  const int64_t lhs_rank = dot.operand(0)->shape().rank();
  const int64_t rhs_rank = dot.operand(1)->shape().rank();
  const auto lhs_free = FreeDimensions(lhs_rank, n.lhs_batch_dimensions, n.lhs_contracting_dimensions);
  const auto rhs_free = FreeDimensions(rhs_rank, n.rhs_batch_dimensions, n.rhs_contracting_dimensions);
  const int64_t batch = int64_t(n.lhs_batch_dimensions.size());
  DotSpace space;
  space.lhs.resize(lhs_rank);
  space.rhs.resize(rhs_rank);
  for (int64_t i = 0; i < batch; ++i) {
    space.lhs[n.lhs_batch_dimensions[i]] = i;
    space.rhs[n.rhs_batch_dimensions[i]] = i;
  }
  int64_t next = batch;
  for (int64_t d : lhs_free) space.lhs[d] = next++;
  for (int64_t d : rhs_free) space.rhs[d] = next++;
  space.result_rank = next;
  for (size_t k = 0; k < n.lhs_contracting_dimensions.size(); ++k) {
    space.lhs[n.lhs_contracting_dimensions[k]] = next;
    space.rhs[n.rhs_contracting_dimensions[k]] = next;
    space.contracting.push_back(next++);
  }
  space.rank = next;
  return space;
}

// The operand's layout in a space layout: its dimensions' tiles; the rest
// of the space becomes replication.
ShardingGrid OperandGrid(const ShardingGrid& space_grid, const std::vector<int64_t>& positions) {
  std::vector<std::vector<int64_t>> sources;
  for (int64_t s : positions) sources.push_back({s});
  return space_grid.Regroup(sources);
}

// The space layout an operand's layout implies (the other operand's free
// dimensions untiled).
ShardingGrid SpaceFromOperand(const ShardingGrid& operand, const std::vector<int64_t>& positions,
                              int64_t space_rank) {
  std::vector<std::vector<int64_t>> sources(space_rank);
  for (size_t d = 0; d < positions.size(); ++d) sources[positions[d]] = {int64_t(d)};
  return operand.Regroup(sources);
}

// Bytes a reshard moves, roughly: nothing when only slicing is needed, the
// whole array when some tiled dimension has to be gathered.
double ReshardBytes(const ShardingGrid& from, const ShardingGrid& to, const Shape& global) {
  for (int64_t d = 0; d < from.rank(); ++d) {
    if (from.tiles(d) > 1 && !from.SameTilingOf(d, to, d)) return double(UnpaddedByteSizeOf(global));
  }
  return 0;
}

bool TilesAny(const ShardingGrid& grid, const std::vector<int64_t>& dimensions) {
  return std::any_of(dimensions.begin(), dimensions.end(),
                     [&](int64_t d) { return grid.tiles(d) > 1; });
}

// The dimension a reduce-scatter over `groups` would split to give
// `target` from `partial`, if there is one: `target` tiles it across
// exactly the groups' members in order and agrees with `partial` elsewhere.
std::optional<int64_t> ScatterDimension(const ShardingGrid& partial, const ShardingGrid& target,
                                        const std::vector<std::vector<int64_t>>& groups,
                                        const Shape& local) {
  std::optional<int64_t> found;
  for (int64_t d = 0; d < partial.rank(); ++d) {
    if (partial.SameTilingOf(d, target, d)) continue;
    if (found || partial.tiles(d) != 1) return std::nullopt;
    found = d;
  }
  if (!found) return std::nullopt;
  const int64_t size = int64_t(groups.front().size());
  if (target.tiles(*found) != size || local.dimensions(*found) % size != 0) return std::nullopt;
  for (const auto& group : groups) {
    for (int64_t i = 0; i < int64_t(group.size()); ++i) {
      if (target.Coordinate(group[i], *found) != i) return std::nullopt;
    }
  }
  return found;
}

}  // namespace

absl::StatusOr<HloInstruction*> PartitionDot(SpmdBuilder& b, const HloInstruction& dot,
                                             const PartitionedArray& lhs,
                                             const PartitionedArray& rhs,
                                             const ShardingGrid& result) {
  const DotSpace space = SpaceOf(dot);
  std::vector<std::vector<int64_t>> result_sources;
  for (int64_t s = 0; s < space.result_rank; ++s) result_sources.push_back({s});
  std::vector<std::vector<int64_t>> from_result = result_sources;
  from_result.resize(space.rank);

  const std::vector<ShardingGrid> candidates = {
      result.Regroup(from_result),
      SpaceFromOperand(lhs.grid, space.lhs, space.rank),
      SpaceFromOperand(rhs.grid, space.rhs, space.rank),
  };
  const ShardingGrid* best = nullptr;
  double best_bytes = std::numeric_limits<double>::infinity();
  for (const ShardingGrid& candidate : candidates) {
    double bytes = ReshardBytes(lhs.grid, OperandGrid(candidate, space.lhs), lhs.global) +
                   ReshardBytes(rhs.grid, OperandGrid(candidate, space.rhs), rhs.global);
    const ShardingGrid partial = candidate.Regroup(result_sources);
    if (TilesAny(candidate, space.contracting)) {
      bytes += 2.0 * double(UnpaddedByteSizeOf(dot.shape())) /
               double(std::max<int64_t>(1, partial.num_partitions() / partial.replication()));
    }
    bytes += ReshardBytes(partial, result, dot.shape());
    if (bytes < best_bytes) {
      best_bytes = bytes;
      best = &candidate;
    }
  }
  const ShardingGrid& chosen = *best;
  const ShardingGrid lhs_grid = OperandGrid(chosen, space.lhs);
  const ShardingGrid rhs_grid = OperandGrid(chosen, space.rhs);
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * l, Reshard(b, lhs, lhs_grid));
  SYSTOLIC_ASSIGN_OR_RETURN(HloInstruction * r, Reshard(b, rhs, rhs_grid));
  const bool split_contracting = TilesAny(chosen, space.contracting);
  if (split_contracting) {
    // Padding past the end of a split contracting dimension must add
    // nothing to the sums.
    const DotDimensionNumbers& n = dot.dot_dimension_numbers();
    l = b.MaskPadding(l, lhs_grid, lhs.global, n.lhs_contracting_dimensions,
                      b.ScalarConstant(l->shape().element_type(), 0));
    r = b.MaskPadding(r, rhs_grid, rhs.global, n.rhs_contracting_dimensions,
                      b.ScalarConstant(r->shape().element_type(), 0));
  }
  const ShardingGrid partial = chosen.Regroup(result_sources);
  const Shape local = b.ArrayShape(dot.shape().element_type(), ShardDimensions(partial, dot.shape()));
  HloInstruction* product = b.Add(dot.CloneWithNewOperands(local, {l, r}));
  product->clear_sharding();
  if (!split_contracting) return Reshard(b, {product, dot.shape(), partial}, result);

  HloComputation* add = MakeScalarComputation(b.computation()->parent(), HloOpcode::kAdd,
                                              dot.shape().element_type());
  // A reducer made here comes from the dot it sums for.
  if (add->root_instruction()->provenance().empty()) AdoptProvenanceForComputation(add, dot);
  const auto groups = chosen.GroupsAlong(space.contracting);
  if (auto d = ScatterDimension(partial, result, groups, local)) {
    return b.ReduceScatter(product, add, *d, groups);
  }
  HloInstruction* sum = b.AllReduce(product, add, groups);
  return Reshard(b, {sum, dot.shape(), partial}, result);
}

}  // namespace systolic::spmd
