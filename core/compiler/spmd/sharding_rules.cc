#include "core/compiler/spmd/sharding_rules.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/compiler/spmd/sharding_transforms.h"

namespace systolic::spmd {
namespace {

// How the dimensions of one operand relate to the result's.
struct Correspondence {
  // Per operand dimension, the result dimension holding the same indices,
  // or -1.
  std::vector<int64_t> result_dim;
  // Which element of a tuple result the operand pairs with.
  int64_t result_leaf = 0;
  // Index / start / initial-value operands inform the operand only.
  bool informs_result = true;
};

bool Contains(const std::vector<int64_t>& values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

std::vector<int64_t> Identity(int64_t rank) {
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

// Each dimension of `operand_dims` kept where `keep(d)` holds.
template <typename Keep>
std::vector<int64_t> KeepWhere(int64_t rank, Keep keep) {
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) dims[d] = keep(d) ? d : -1;
  return dims;
}

// A scalar-like operand: an index, start or initial value.
Correspondence Auxiliary(int64_t rank, int64_t result_leaf = 0) {
  return {std::vector<int64_t>(size_t(rank), -1), result_leaf, /*informs_result=*/false};
}

const Shape& ResultLeafShape(const HloInstruction& instr) {
  const Shape& shape = instr.shape();
  return shape.IsTuple() && shape.tuple_shapes_size() > 0 ? shape.tuple_shapes(0) : shape;
}

std::optional<Correspondence> ElementwiseCorrespondence(const HloInstruction& instr, int64_t k) {
  const Shape& operand = instr.operand(k)->shape();
  const Shape& result = instr.shape();
  if (!operand.IsArray() || !result.IsArray()) return std::nullopt;
  if (operand.dimensions() == result.dimensions()) return Correspondence{Identity(operand.rank())};
  // clamp and select accept scalar bounds / predicates.
  if (operand.rank() == 0) return Auxiliary(0);
  return std::nullopt;
}

std::optional<Correspondence> DotCorrespondence(const HloInstruction& instr, int64_t k) {
  const DotDimensionNumbers& dnums = instr.dot_dimension_numbers();
  const bool lhs = k == 0;
  const auto& batch = lhs ? dnums.lhs_batch_dimensions : dnums.rhs_batch_dimensions;
  const auto& contracting = lhs ? dnums.lhs_contracting_dimensions : dnums.rhs_contracting_dimensions;
  const int64_t rank = instr.operand(k)->shape().rank();
  // Result dimensions: batch, then the lhs's free ones, then the rhs's.
  const int64_t lhs_free = instr.operand(0)->shape().rank() -
                           int64_t(dnums.lhs_batch_dimensions.size()) -
                           int64_t(dnums.lhs_contracting_dimensions.size());
  int64_t next_free = int64_t(batch.size()) + (lhs ? 0 : lhs_free);
  Correspondence c{std::vector<int64_t>(size_t(rank), -1)};
  for (size_t i = 0; i < batch.size(); ++i) c.result_dim[batch[i]] = int64_t(i);
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(batch, d) && !Contains(contracting, d)) c.result_dim[d] = next_free++;
  }
  return c;
}

bool IsUngroupedConvolution(const HloInstruction& instr) {
  return instr.feature_group_count() == 1 && instr.batch_group_count() == 1;
}

std::optional<Correspondence> ConvolutionCorrespondence(const HloInstruction& instr, int64_t k) {
  const ConvolutionDimensionNumbers& dnums = instr.convolution_dimension_numbers();
  Correspondence c{std::vector<int64_t>(size_t(instr.operand(k)->shape().rank()), -1)};
  if (k == 0) {
    // Batch groups fold the input batch into the output features.
    if (instr.batch_group_count() == 1) {
      c.result_dim[dnums.input_batch_dimension] = dnums.output_batch_dimension;
    }
    for (size_t i = 0; i < dnums.input_spatial_dimensions.size(); ++i) {
      c.result_dim[dnums.input_spatial_dimensions[i]] = dnums.output_spatial_dimensions[i];
    }
  } else if (IsUngroupedConvolution(instr)) {
    c.result_dim[dnums.kernel_output_feature_dimension] = dnums.output_feature_dimension;
  }
  return c;
}

std::optional<Correspondence> GatherCorrespondence(const HloInstruction& instr, int64_t k) {
  const GatherDimensionNumbers& dnums = instr.gather_dimension_numbers();
  const Shape& operand = instr.operand(0)->shape();
  const Shape& indices = instr.operand(1)->shape();
  // Result batch dimensions pair, in order, with the indices' dimensions
  // other than the index vector dimension.
  std::vector<int64_t> result_batch;
  for (int64_t d = 0; d < instr.shape().rank(); ++d) {
    if (!Contains(dnums.offset_dims, d)) result_batch.push_back(d);
  }
  std::vector<int64_t> result_of_indices_dim(size_t(indices.rank()), -1);
  for (int64_t d = 0, next = 0; d < indices.rank(); ++d) {
    if (d == dnums.index_vector_dim) continue;
    if (next < int64_t(result_batch.size())) result_of_indices_dim[d] = result_batch[next++];
  }
  if (k == 1) return Correspondence{result_of_indices_dim};
  Correspondence c{std::vector<int64_t>(size_t(operand.rank()), -1)};
  for (size_t i = 0; i < dnums.operand_batching_dims.size(); ++i) {
    c.result_dim[dnums.operand_batching_dims[i]] =
        result_of_indices_dim[dnums.start_indices_batching_dims[i]];
  }
  // Window dimensions pair, in order, with the offset dimensions; only those
  // taken whole keep their tiling.
  size_t next_offset = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (Contains(dnums.collapsed_slice_dims, d) || Contains(dnums.operand_batching_dims, d)) continue;
    if (next_offset >= dnums.offset_dims.size()) break;
    const int64_t offset_dim = dnums.offset_dims[next_offset++];
    if (instr.slice_sizes()[d] == operand.dimensions(d)) c.result_dim[d] = offset_dim;
  }
  return c;
}

std::optional<Correspondence> ScatterCorrespondence(const HloInstruction& instr, int64_t k) {
  const int64_t inputs = (instr.operand_count() - 1) / 2;
  if (k < inputs) return Correspondence{Identity(instr.operand(k)->shape().rank()), k};
  if (k == inputs) return std::nullopt;  // indices: replicated unless a user says otherwise
  const ScatterDimensionNumbers& dnums = instr.scatter_dimension_numbers();
  const Shape& operand = instr.operand(0)->shape();
  const Shape& updates = instr.operand(k)->shape();
  Correspondence c{std::vector<int64_t>(size_t(updates.rank()), -1), k - inputs - 1};
  // Update window dimensions pair, in order, with the operand dimensions
  // that are neither inserted nor batching; those taken whole keep tiling.
  size_t next_window = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (Contains(dnums.inserted_window_dims, d) || Contains(dnums.input_batching_dims, d)) continue;
    if (next_window >= dnums.update_window_dims.size()) break;
    const int64_t update_dim = dnums.update_window_dims[next_window++];
    if (updates.dimensions(update_dim) == operand.dimensions(d)) c.result_dim[update_dim] = d;
  }
  return c;
}

std::optional<Correspondence> DimensionCorrespondence(const HloInstruction& instr, int64_t k) {
  const Shape& operand = instr.operand(k)->shape();
  if (!operand.IsArray()) return std::nullopt;
  const int64_t rank = operand.rank();
  switch (instr.opcode()) {
    case HloOpcode::kBroadcast: {
      Correspondence c{instr.dimensions()};
      return c;
    }
    case HloOpcode::kTranspose: {
      Correspondence c{std::vector<int64_t>(size_t(rank), -1)};
      for (int64_t i = 0; i < rank; ++i) c.result_dim[instr.dimensions(i)] = i;
      return c;
    }
    case HloOpcode::kSlice:
      return Correspondence{KeepWhere(rank, [&](int64_t d) {
        return instr.slice_starts()[d] == 0 && instr.slice_limits()[d] == operand.dimensions(d) &&
               instr.slice_strides()[d] == 1;
      })};
    case HloOpcode::kDynamicSlice:
      if (k > 0) return Auxiliary(rank);
      return Correspondence{
          KeepWhere(rank, [&](int64_t d) { return instr.slice_sizes()[d] == operand.dimensions(d); })};
    case HloOpcode::kDynamicUpdateSlice:
      if (k > 1) return Auxiliary(rank);
      return Correspondence{KeepWhere(
          rank, [&](int64_t d) { return operand.dimensions(d) == instr.shape().dimensions(d); })};
    case HloOpcode::kConcatenate:
      return Correspondence{
          KeepWhere(rank, [&](int64_t d) { return d != instr.concatenate_dimension(); })};
    case HloOpcode::kPad:
      if (k > 0) return Auxiliary(rank);
      return Correspondence{KeepWhere(rank, [&](int64_t d) {
        const PaddingDimension& p = instr.padding_config().dimensions[d];
        return p.edge_padding_low == 0 && p.edge_padding_high == 0 && p.interior_padding == 0;
      })};
    case HloOpcode::kReduceWindow: {
      const int64_t inputs = instr.operand_count() / 2;
      if (k >= inputs) return Auxiliary(rank, k - inputs);
      return Correspondence{Identity(rank), k};
    }
    case HloOpcode::kSelectAndScatter:
      if (k == 2) return Auxiliary(rank);
      if (rank != instr.shape().rank()) return std::nullopt;
      return Correspondence{Identity(rank)};
    case HloOpcode::kReduce: {
      const int64_t inputs = instr.operand_count() / 2;
      if (k >= inputs) return Auxiliary(rank, k - inputs);
      Correspondence c{std::vector<int64_t>(size_t(rank), -1), k};
      for (int64_t d = 0, next = 0; d < rank; ++d) {
        if (!Contains(instr.dimensions(), d)) c.result_dim[d] = next++;
      }
      return c;
    }
    case HloOpcode::kSort:
      return Correspondence{KeepWhere(rank, [&](int64_t d) { return d != instr.dimensions(0); }), k};
    case HloOpcode::kDot:
      return DotCorrespondence(instr, k);
    case HloOpcode::kConvolution:
      return ConvolutionCorrespondence(instr, k);
    case HloOpcode::kGather:
      return GatherCorrespondence(instr, k);
    case HloOpcode::kScatter:
      return ScatterCorrespondence(instr, k);
    case HloOpcode::kRng:
      return Auxiliary(rank);
    case HloOpcode::kAddDependency:
      if (k > 0) return std::nullopt;
      return ElementwiseCorrespondence(instr, k);
    case HloOpcode::kMap:
    case HloOpcode::kAllReduce:
    case HloOpcode::kDomain:
      return ElementwiseCorrespondence(instr, k);
    default:
      if (instr.IsElementwise()) return ElementwiseCorrespondence(instr, k);
      return std::nullopt;
  }
}

// `sharding` as the sharding of every element of a tuple result.
HloSharding ForEveryResultLeaf(const HloInstruction& instr, HloSharding sharding) {
  if (!instr.shape().IsTuple()) return sharding;
  return HloSharding::Tuple(
      std::vector<HloSharding>(size_t(instr.shape().tuple_shapes_size()), sharding));
}

// The element of `result_sharding` for tuple element `leaf`; nullopt while
// unknown.
std::optional<HloSharding> ResultLeaf(const HloSharding& result_sharding, int64_t leaf) {
  if (!result_sharding.IsTuple()) {
    if (result_sharding.IsUnknown()) return std::nullopt;
    return result_sharding;
  }
  const auto& elements = result_sharding.tuple_elements();
  if (leaf < 0 || leaf >= int64_t(elements.size()) || elements[leaf].IsUnknown()) {
    return std::nullopt;
  }
  return elements[leaf];
}

bool IsReshapeLike(const HloInstruction& instr) {
  if (instr.opcode() != HloOpcode::kReshape && instr.opcode() != HloOpcode::kBitcast) return false;
  const Shape& operand = instr.operand(0)->shape();
  return operand.IsArray() && instr.shape().IsArray() &&
         operand.num_elements() == instr.shape().num_elements();
}

}  // namespace

std::optional<HloSharding> InferResultSharding(const HloInstruction& instr, int64_t operand_index,
                                               const HloSharding& operand_sharding) {
  if (operand_sharding.IsUnknown() || operand_sharding.IsTuple()) return std::nullopt;
  if (IsReshapeLike(instr)) {
    return ReshapeSharding(operand_sharding, instr.operand(0)->shape().dimensions(),
                           instr.shape().dimensions());
  }
  if (instr.opcode() == HloOpcode::kReverse) {
    return ReverseSharding(operand_sharding, instr.dimensions());
  }
  std::optional<Correspondence> c = DimensionCorrespondence(instr, operand_index);
  if (!c || !c->informs_result) return std::nullopt;
  std::vector<int64_t> source_dims(size_t(ResultLeafShape(instr).rank()), -1);
  for (size_t d = 0; d < c->result_dim.size(); ++d) {
    const int64_t r = c->result_dim[d];
    if (r >= 0 && r < int64_t(source_dims.size())) source_dims[r] = int64_t(d);
  }
  return ForEveryResultLeaf(instr, RemapDimensions(operand_sharding, source_dims));
}

std::optional<HloSharding> InferOperandSharding(const HloInstruction& instr,
                                                int64_t operand_index,
                                                const HloSharding& result_sharding) {
  if (IsReshapeLike(instr)) {
    auto leaf = ResultLeaf(result_sharding, 0);
    if (!leaf) return std::nullopt;
    return ReshapeSharding(*leaf, instr.shape().dimensions(),
                           instr.operand(0)->shape().dimensions());
  }
  if (instr.opcode() == HloOpcode::kReverse) {
    auto leaf = ResultLeaf(result_sharding, 0);
    if (!leaf) return std::nullopt;
    return ReverseSharding(*leaf, instr.dimensions());
  }
  std::optional<Correspondence> c = DimensionCorrespondence(instr, operand_index);
  if (!c) return std::nullopt;
  auto leaf = ResultLeaf(result_sharding, c->result_leaf);
  if (!leaf) return std::nullopt;
  return RemapDimensions(*leaf, c->result_dim);
}

std::optional<HloSharding> InferOperandShardingFromSibling(const HloInstruction& instr,
                                                           int64_t operand_index,
                                                           const HloSharding& sibling_sharding) {
  if (operand_index > 1 || sibling_sharding.IsUnknown() || sibling_sharding.IsTuple()) {
    return std::nullopt;
  }
  const int64_t rank = instr.operand(operand_index)->shape().rank();
  // Per dimension of this operand, the sibling's dimension it shares.
  std::vector<int64_t> source_dims(size_t(rank), -1);
  const bool lhs = operand_index == 0;
  if (instr.opcode() == HloOpcode::kDot) {
    const DotDimensionNumbers& dnums = instr.dot_dimension_numbers();
    const auto& own_batch = lhs ? dnums.lhs_batch_dimensions : dnums.rhs_batch_dimensions;
    const auto& other_batch = lhs ? dnums.rhs_batch_dimensions : dnums.lhs_batch_dimensions;
    const auto& own_contracting =
        lhs ? dnums.lhs_contracting_dimensions : dnums.rhs_contracting_dimensions;
    const auto& other_contracting =
        lhs ? dnums.rhs_contracting_dimensions : dnums.lhs_contracting_dimensions;
    for (size_t i = 0; i < own_batch.size(); ++i) source_dims[own_batch[i]] = other_batch[i];
    for (size_t i = 0; i < own_contracting.size(); ++i) {
      source_dims[own_contracting[i]] = other_contracting[i];
    }
  } else if (instr.opcode() == HloOpcode::kConvolution && IsUngroupedConvolution(instr)) {
    const ConvolutionDimensionNumbers& dnums = instr.convolution_dimension_numbers();
    if (lhs) {
      source_dims[dnums.input_feature_dimension] = dnums.kernel_input_feature_dimension;
    } else {
      source_dims[dnums.kernel_input_feature_dimension] = dnums.input_feature_dimension;
    }
  } else {
    return std::nullopt;
  }
  return RemapDimensions(sibling_sharding, source_dims);
}

int PropagationPriority(const HloInstruction& instr) {
  switch (instr.opcode()) {
    case HloOpcode::kDot:
    case HloOpcode::kConvolution:
      return 1;
    case HloOpcode::kReduce:
    case HloOpcode::kGather:
    case HloOpcode::kScatter:
    case HloOpcode::kSort:
      return 2;
    default:
      return 0;
  }
}

}  // namespace systolic::spmd
