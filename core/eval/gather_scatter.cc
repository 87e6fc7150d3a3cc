#include "core/eval/gather_scatter.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The start indices as int64, with the index-vector dimension made explicit
// as the last dimension: [batch positions..., index vector].
struct IndexTable {
  std::vector<int64_t> values;
  std::vector<int64_t> batch_dims;      // sizes of the indices' batch dimensions
  std::vector<int64_t> batch_dim_ids;   // their dimension numbers in the indices
  int64_t vector_size = 1;
  int64_t At(int64_t batch_linear, int64_t k) const { return values[batch_linear * vector_size + k]; }
};

absl::StatusOr<IndexTable> ReadIndices(const Literal& indices, int64_t index_vector_dim) {
  if (!indices.shape().IsArray() || !primitive_util::IsIntegralType(indices.element_type())) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices must be an integer array, got ", indices.shape().ToString()));
  }
  const Shape& s = indices.shape();
  if (index_vector_dim < 0 || index_vector_dim > s.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index_vector_dim ", index_vector_dim, " is out of range for ", s.ToString()));
  }
  IndexTable t;
  std::vector<int64_t> order;
  for (int64_t d = 0; d < s.rank(); ++d) {
    if (d == index_vector_dim) continue;
    t.batch_dims.push_back(s.dimensions(d));
    t.batch_dim_ids.push_back(d);
    order.push_back(d);
  }
  if (index_vector_dim < s.rank()) {
    t.vector_size = s.dimensions(index_vector_dim);
    order.push_back(index_vector_dim);
  }
  // Read in the permuted order: element (batch..., k).
  std::vector<int64_t> dims, strides;
  const std::vector<int64_t> in_strides = RowMajorStrides(s.dimensions());
  for (int64_t d : order) {
    dims.push_back(s.dimensions(d));
    strides.push_back(in_strides[d]);
  }
  auto as64 = indices.Convert(S64);
  if (!as64.ok()) return as64.status();
  t.values.resize(size_t(indices.element_count()));
  if (!t.values.empty()) {
    StridedCopy(dims, as64->untyped_data(), 0, strides, t.values.data(), 0, RowMajorStrides(dims),
                8);
  }
  return t;
}

// Position of indices dimension `dim` among the batch dimensions.
int64_t BatchPosition(const IndexTable& t, int64_t dim) {
  for (size_t i = 0; i < t.batch_dim_ids.size(); ++i) {
    if (t.batch_dim_ids[i] == dim) return int64_t(i);
  }
  return -1;
}

bool Next(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (int64_t d = int64_t(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

int64_t Count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

absl::StatusOr<Literal> Gather(const Literal& operand, const Literal& start_indices,
                               const GatherDimensionNumbers& dnums,
                               absl::Span<const int64_t> slice_sizes,
                               absl::Span<const int64_t> result_dims) {
  if (!operand.shape().IsArray()) return absl::InvalidArgumentError("gather needs an array");
  const Shape& os = operand.shape();
  const int64_t rank = os.rank();
  if (int64_t(slice_sizes.size()) != rank) {
    return absl::InvalidArgumentError("gather: slice_sizes must match the operand rank");
  }
  auto table = ReadIndices(start_indices, dnums.index_vector_dim);
  if (!table.ok()) return table.status();
  if (table->vector_size != int64_t(dnums.start_index_map.size())) {
    return absl::InvalidArgumentError(absl::StrCat("gather: the index vector has ",
                                                   table->vector_size, " entries but start_index_map ",
                                                   dnums.start_index_map.size()));
  }
  // Operand dimensions that become offset dimensions, in order.
  std::vector<int64_t> window_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > os.dimensions(d)) {
      return absl::InvalidArgumentError(absl::StrCat("gather: slice size ", slice_sizes[d],
                                                     " exceeds dimension ", d, " of ", os.ToString()));
    }
    if (!Contains(dnums.collapsed_slice_dims, d) && !Contains(dnums.operand_batching_dims, d)) {
      window_dims.push_back(d);
    }
  }
  if (window_dims.size() != dnums.offset_dims.size()) {
    return absl::InvalidArgumentError("gather: offset_dims do not match the slice");
  }
  std::vector<int64_t> out_batch_dims;
  const int64_t out_rank = int64_t(result_dims.size());
  for (int64_t d = 0; d < out_rank; ++d) {
    if (!Contains(dnums.offset_dims, d)) out_batch_dims.push_back(d);
  }
  if (out_batch_dims.size() != table->batch_dims.size()) {
    return absl::InvalidArgumentError("gather: the result's batch dimensions do not match the indices");
  }
  for (size_t i = 0; i < out_batch_dims.size(); ++i) {
    if (result_dims[out_batch_dims[i]] != table->batch_dims[i]) {
      return absl::InvalidArgumentError("gather: batch dimension sizes differ from the indices");
    }
  }
  for (int64_t d : dnums.start_index_map) {
    if (d < 0 || d >= rank) return absl::InvalidArgumentError("gather: start_index_map is out of range");
  }
  if (dnums.operand_batching_dims.size() != dnums.start_indices_batching_dims.size()) {
    return absl::InvalidArgumentError("gather: batching dimension lists differ in length");
  }
  std::vector<int64_t> batching_positions;
  for (int64_t d : dnums.start_indices_batching_dims) {
    batching_positions.push_back(BatchPosition(*table, d));
    if (batching_positions.back() < 0) {
      return absl::InvalidArgumentError("gather: start_indices_batching_dims is out of range");
    }
  }

  Literal out(Shape(operand.element_type(), result_dims));
  if (out.element_count() == 0) return out;
  const int64_t width = primitive_util::ByteWidth(operand.element_type());
  const std::vector<int64_t> op_strides = RowMajorStrides(os.dimensions());
  const std::vector<int64_t> out_strides = RowMajorStrides(std::vector<int64_t>(result_dims.begin(), result_dims.end()));
  std::vector<int64_t> copy_dims, src_strides, dst_strides;
  for (size_t j = 0; j < window_dims.size(); ++j) {
    copy_dims.push_back(slice_sizes[window_dims[j]]);
    src_strides.push_back(op_strides[window_dims[j]]);
    dst_strides.push_back(out_strides[dnums.offset_dims[j]]);
  }
  std::vector<int64_t> batch(table->batch_dims.size(), 0);
  std::vector<int64_t> start(rank);
  const int64_t batches = Count(table->batch_dims);
  for (int64_t b = 0; b < batches; ++b) {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < dnums.start_index_map.size(); ++k) {
      start[dnums.start_index_map[k]] = table->At(b, int64_t(k));
    }
    for (size_t i = 0; i < dnums.operand_batching_dims.size(); ++i) {
      start[dnums.operand_batching_dims[i]] = batch[batching_positions[i]];
    }
    int64_t src = 0, dst = 0;
    for (int64_t d = 0; d < rank; ++d) {
      src += std::clamp<int64_t>(start[d], 0, os.dimensions(d) - slice_sizes[d]) * op_strides[d];
    }
    for (size_t i = 0; i < out_batch_dims.size(); ++i) dst += batch[i] * out_strides[out_batch_dims[i]];
    StridedCopy(copy_dims, operand.untyped_data(), src, src_strides, out.untyped_data(), dst,
                dst_strides, width);
    Next(batch, table->batch_dims);
  }
  return out;
}

absl::StatusOr<Literal> Scatter(absl::Span<const Literal* const> operands,
                                const Literal& scatter_indices,
                                absl::Span<const Literal* const> updates,
                                const ScatterDimensionNumbers& dnums, ScalarFunction& combiner) {
  const size_t n = operands.size();
  if (n == 0 || updates.size() != n) {
    return absl::InvalidArgumentError("scatter needs as many updates as operands");
  }
  if (combiner.parameter_count() != int64_t(2 * n) || combiner.result_count() != int64_t(n)) {
    return absl::InvalidArgumentError("scatter: the update computation does not fit the operands");
  }
  const Shape& os = operands[0]->shape();
  const Shape& us = updates[0]->shape();
  for (size_t i = 0; i < n; ++i) {
    if (!operands[i]->shape().IsArray() || operands[i]->shape().dimensions() != os.dimensions() ||
        !updates[i]->shape().IsArray() || updates[i]->shape().dimensions() != us.dimensions()) {
      return absl::InvalidArgumentError("scatter operands (and updates) must share one shape");
    }
  }
  auto table = ReadIndices(scatter_indices, dnums.index_vector_dim);
  if (!table.ok()) return table.status();
  if (table->vector_size != int64_t(dnums.scatter_dims_to_operand_dims.size())) {
    return absl::InvalidArgumentError("scatter: the index vector does not match scatter_dims_to_operand_dims");
  }
  const int64_t rank = os.rank();
  std::vector<int64_t> operand_window_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(dnums.inserted_window_dims, d) && !Contains(dnums.input_batching_dims, d)) {
      operand_window_dims.push_back(d);
    }
  }
  if (operand_window_dims.size() != dnums.update_window_dims.size()) {
    return absl::InvalidArgumentError("scatter: update_window_dims do not match the operand");
  }
  std::vector<int64_t> update_scatter_dims;
  for (int64_t d = 0; d < us.rank(); ++d) {
    if (!Contains(dnums.update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  if (update_scatter_dims.size() != table->batch_dims.size()) {
    return absl::InvalidArgumentError("scatter: the updates' scatter dimensions do not match the indices");
  }
  std::vector<int64_t> scatter_sizes, window_sizes(rank, 1), update_window_sizes;
  for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
    scatter_sizes.push_back(us.dimensions(update_scatter_dims[i]));
    if (scatter_sizes.back() != table->batch_dims[i]) {
      return absl::InvalidArgumentError("scatter: update and index batch sizes differ");
    }
  }
  for (size_t j = 0; j < operand_window_dims.size(); ++j) {
    const int64_t size = us.dimensions(dnums.update_window_dims[j]);
    window_sizes[operand_window_dims[j]] = size;
    update_window_sizes.push_back(size);
    if (size > os.dimensions(operand_window_dims[j])) {
      return absl::InvalidArgumentError("scatter: an update window exceeds the operand");
    }
  }
  for (int64_t d : dnums.scatter_dims_to_operand_dims) {
    if (d < 0 || d >= rank) return absl::InvalidArgumentError("scatter: scatter_dims_to_operand_dims is out of range");
  }
  if (dnums.input_batching_dims.size() != dnums.scatter_indices_batching_dims.size()) {
    return absl::InvalidArgumentError("scatter: batching dimension lists differ in length");
  }
  std::vector<int64_t> batching_positions;
  for (int64_t d : dnums.scatter_indices_batching_dims) {
    batching_positions.push_back(BatchPosition(*table, d));
    if (batching_positions.back() < 0) {
      return absl::InvalidArgumentError("scatter: scatter_indices_batching_dims is out of range");
    }
  }

  std::vector<Literal> outputs;
  std::vector<uint8_t*> out_data(n);
  std::vector<const uint8_t*> upd_data(n);
  std::vector<int64_t> out_width(n), upd_width(n);
  for (size_t i = 0; i < n; ++i) {
    outputs.push_back(operands[i]->Clone());
    out_data[i] = static_cast<uint8_t*>(outputs[i].untyped_data());
    upd_data[i] = static_cast<const uint8_t*>(updates[i]->untyped_data());
    out_width[i] = primitive_util::ByteWidth(operands[i]->element_type());
    upd_width[i] = primitive_util::ByteWidth(updates[i]->element_type());
  }
  const std::vector<int64_t> op_strides = RowMajorStrides(os.dimensions());
  const std::vector<int64_t> up_strides = RowMajorStrides(us.dimensions());
  std::vector<const void*> args(2 * n);
  std::vector<void*> results(n);
  std::vector<int64_t> scatter_index(scatter_sizes.size(), 0), start(rank);
  std::vector<int64_t> window_index(update_window_sizes.size(), 0);
  const int64_t scatters = Count(scatter_sizes), window_count = Count(update_window_sizes);
  for (int64_t s = 0; s < scatters && us.num_elements() > 0; ++s, Next(scatter_index, scatter_sizes)) {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < dnums.scatter_dims_to_operand_dims.size(); ++k) {
      start[dnums.scatter_dims_to_operand_dims[k]] = table->At(s, int64_t(k));
    }
    for (size_t i = 0; i < dnums.input_batching_dims.size(); ++i) {
      start[dnums.input_batching_dims[i]] = scatter_index[batching_positions[i]];
    }
    bool in_bounds = true;
    int64_t op_base = 0, up_base = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (start[d] < 0 || start[d] > os.dimensions(d) - window_sizes[d]) in_bounds = false;
      op_base += start[d] * op_strides[d];
    }
    if (!in_bounds) continue;  // XLA skips a window that leaves the operand
    for (size_t i = 0; i < update_scatter_dims.size(); ++i) {
      up_base += scatter_index[i] * up_strides[update_scatter_dims[i]];
    }
    std::fill(window_index.begin(), window_index.end(), 0);
    for (int64_t w = 0; w < window_count; ++w, Next(window_index, update_window_sizes)) {
      int64_t op_pos = op_base, up_pos = up_base;
      for (size_t j = 0; j < window_index.size(); ++j) {
        op_pos += window_index[j] * op_strides[operand_window_dims[j]];
        up_pos += window_index[j] * up_strides[dnums.update_window_dims[j]];
      }
      for (size_t i = 0; i < n; ++i) {
        args[i] = out_data[i] + op_pos * out_width[i];
        args[n + i] = upd_data[i] + up_pos * upd_width[i];
        results[i] = out_data[i] + op_pos * out_width[i];
      }
      if (auto st = combiner.Call(args.data(), results.data()); !st.ok()) return st;
    }
  }
  if (n == 1) return std::move(outputs[0]);
  return Literal::MakeTuple(std::move(outputs));
}

}  // namespace systolic::eval
