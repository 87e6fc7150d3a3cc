#include "core/compiler/spmd/layout_mapping.h"

namespace systolic::spmd {
namespace {

// Dimensions of operand and result that a reshape maps onto each other as
// a block (equal element counts).
struct DimensionBlock {
  std::vector<int64_t> operand;
  std::vector<int64_t> result;
};

std::vector<DimensionBlock> DimensionBlocks(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<DimensionBlock> groups;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    DimensionBlock g;
    if (i < a.size() && a[i] == 1) {
      g.operand.push_back(int64_t(i++));
    } else if (j < b.size() && b[j] == 1) {
      g.result.push_back(int64_t(j++));
    } else {
      int64_t pa = 1, pb = 1;
      do {
        if ((pa <= pb && i < a.size()) || j >= b.size()) {
          pa *= a[i];
          g.operand.push_back(int64_t(i++));
        } else {
          pb *= b[j];
          g.result.push_back(int64_t(j++));
        }
      } while (pa != pb && (i < a.size() || j < b.size()));
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

}  // namespace

ShardingGrid BroadcastOperandGrid(const ShardingGrid& result,
                                  const std::vector<int64_t>& dimensions) {
  std::vector<std::vector<int64_t>> sources;
  for (int64_t d : dimensions) sources.push_back({d});
  return result.Regroup(sources);
}

ShardingGrid TransposeOperandGrid(const ShardingGrid& result,
                                  const std::vector<int64_t>& permutation) {
  std::vector<std::vector<int64_t>> sources(permutation.size());
  for (size_t k = 0; k < permutation.size(); ++k) sources[permutation[k]] = {int64_t(k)};
  return result.Regroup(sources);
}

std::optional<ShardingGrid> ReshapeOperandGrid(const ShardingGrid& result, const Shape& operand,
                                               const Shape& result_shape) {
  const std::vector<int64_t>& a = operand.dimensions();
  const std::vector<int64_t>& b = result_shape.dimensions();
  std::vector<std::vector<int64_t>> sources(a.size());
  for (const DimensionBlock& g : DimensionBlocks(a, b)) {
    for (size_t k = 0; k < g.result.size(); ++k) {
      const int64_t tiles = result.tiles(g.result[k]);
      if (tiles == 1) continue;
      // Only the block's major dimension may be tiled, and only where the
      // operand's major dimension splits the same way.
      if (k != 0 || g.operand.empty()) return std::nullopt;
      const bool one_to_one = g.operand.size() == 1 && g.result.size() == 1;
      if (!one_to_one && (a[g.operand[0]] % tiles != 0 || b[g.result[0]] % tiles != 0)) {
        return std::nullopt;
      }
      sources[g.operand[0]] = {g.result[0]};
    }
  }
  return result.Regroup(sources);
}

}  // namespace systolic::spmd
