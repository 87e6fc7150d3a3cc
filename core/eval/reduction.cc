#include "core/eval/reduction.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {
namespace {

struct alignas(16) Slot {
  uint8_t bytes[16];
};

absl::Status CheckVariadic(absl::Span<const Literal* const> inputs,
                           absl::Span<const Literal* const> inits, const ScalarFunction& f) {
  if (inputs.empty() || inputs.size() != inits.size()) {
    return absl::InvalidArgumentError("the reduction needs as many init values as inputs");
  }
  const size_t n = inputs.size();
  if (f.parameter_count() != int64_t(2 * n) || f.result_count() != int64_t(n)) {
    return absl::InvalidArgumentError(absl::StrCat("the reducer takes ", f.parameter_count(),
                                                   " scalars and returns ", f.result_count(),
                                                   ", not ", 2 * n, " and ", n));
  }
  for (size_t i = 0; i < n; ++i) {
    if (!inputs[i]->shape().IsArray() || inits[i]->element_count() != 1 ||
        inputs[i]->shape().dimensions() != inputs[0]->shape().dimensions()) {
      return absl::InvalidArgumentError("the reduction inputs must be arrays of one shape");
    }
    if (inputs[i]->element_type() != f.parameter_type(int64_t(n + i)) ||
        inits[i]->element_type() != f.parameter_type(int64_t(i)) ||
        f.result_type(int64_t(i)) != f.parameter_type(int64_t(i))) {
      return absl::InvalidArgumentError(absl::StrCat("the reducer's types do not match input ", i));
    }
  }
  return absl::OkStatus();
}

Literal MakeResult(std::vector<Literal> outputs) {
  if (outputs.size() == 1) return std::move(outputs[0]);
  return Literal::MakeTuple(std::move(outputs));
}

// Calls `f` on (accumulators..., elements...) -> accumulators.
class Combiner {
 public:
  Combiner(ScalarFunction& f, size_t n) : f_(f), n_(n), args_(2 * n), results_(n) {}
  absl::Status operator()(void* const* acc, const void* const* x) {
    for (size_t i = 0; i < n_; ++i) {
      args_[i] = acc[i];
      args_[n_ + i] = x[i];
      results_[i] = acc[i];
    }
    return f_.Call(args_.data(), results_.data());
  }

 private:
  ScalarFunction& f_;
  size_t n_;
  std::vector<const void*> args_;
  std::vector<void*> results_;
};

}  // namespace

absl::StatusOr<Literal> Reduce(absl::Span<const Literal* const> inputs,
                               absl::Span<const Literal* const> inits,
                               absl::Span<const int64_t> dimensions, ScalarFunction& reducer) {
  if (auto s = CheckVariadic(inputs, inits, reducer); !s.ok()) return s;
  const size_t n = inputs.size();
  const Shape& shape = inputs[0]->shape();
  const int64_t rank = shape.rank();
  std::vector<bool> reduced(rank, false);
  for (int64_t d : dimensions) {
    if (d < 0 || d >= rank || reduced[d]) {
      return absl::InvalidArgumentError(absl::StrCat("reduce dimension ", d, " is invalid for ",
                                                     shape.ToString()));
    }
    reduced[d] = true;
  }
  std::vector<int64_t> out_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) out_dims.push_back(shape.dimensions(d));
  }
  std::vector<Literal> outputs;
  std::vector<uint8_t*> acc(n);
  std::vector<const uint8_t*> in(n);
  std::vector<int64_t> width(n);
  for (size_t i = 0; i < n; ++i) {
    outputs.emplace_back(Shape(inputs[i]->element_type(), out_dims));
    width[i] = primitive_util::ByteWidth(inputs[i]->element_type());
    FillElements(outputs[i].untyped_data(), inits[i]->untyped_data(), outputs[i].element_count(),
                 width[i]);
    acc[i] = static_cast<uint8_t*>(outputs[i].untyped_data());
    in[i] = static_cast<const uint8_t*>(inputs[i]->untyped_data());
  }
  if (shape.num_elements() == 0) return MakeResult(std::move(outputs));

  // Output stride of every input dimension (0 for reduced ones).
  std::vector<int64_t> out_row_strides = RowMajorStrides(out_dims);
  std::vector<int64_t> out_strides(rank, 0);
  for (int64_t d = 0, k = 0; d < rank; ++d) {
    if (!reduced[d]) out_strides[d] = out_row_strides[k++];
  }
  const ElementwiseKernel* kernel = n == 1 ? reducer.binary_kernel() : nullptr;
  const bool swapped = reducer.binary_swapped();
  Combiner combine(reducer, n);
  std::vector<void*> acc_ptr(n);
  std::vector<const void*> x_ptr(n);

  if (rank == 0) {
    for (size_t i = 0; i < n; ++i) {
      acc_ptr[i] = acc[i];
      x_ptr[i] = in[i];
    }
    if (auto s = combine(acc_ptr.data(), x_ptr.data()); !s.ok()) return s;
    return MakeResult(std::move(outputs));
  }

  const int64_t inner = shape.dimensions(rank - 1);
  const int64_t inner_out_stride = out_strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t in_pos = 0, out_pos = 0;
  while (true) {
    // One innermost row.
    if (kernel != nullptr) {
      const int64_t w = width[0];
      if (inner_out_stride != 0) {
        // Kept innermost dimension: the row updates a row of accumulators.
        void* a = acc[0] + out_pos * w;
        const void* ins[2] = {swapped ? static_cast<const void*>(in[0] + in_pos * w) : a,
                              swapped ? a : static_cast<const void*>(in[0] + in_pos * w)};
        kernel->Run(ins, a, inner);
      } else {
        void* a = acc[0] + out_pos * w;
        for (int64_t j = 0; j < inner; ++j) {
          const void* x = in[0] + (in_pos + j) * w;
          const void* ins[2] = {swapped ? x : a, swapped ? a : x};
          kernel->Run(ins, a, 1);
        }
      }
    } else {
      for (int64_t j = 0; j < inner; ++j) {
        for (size_t i = 0; i < n; ++i) {
          acc_ptr[i] = acc[i] + (out_pos + j * inner_out_stride) * width[i];
          x_ptr[i] = in[i] + (in_pos + j) * width[i];
        }
        if (auto s = combine(acc_ptr.data(), x_ptr.data()); !s.ok()) return s;
      }
    }
    in_pos += inner;
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      out_pos += out_strides[d];
      if (++index[d] < shape.dimensions(d)) break;
      out_pos -= out_strides[d] * shape.dimensions(d);
      index[d] = 0;
    }
    if (d < 0) break;
  }
  return MakeResult(std::move(outputs));
}

namespace {

// Output dimensions of a window over `dims`.
absl::StatusOr<std::vector<int64_t>> WindowOutputDims(const std::vector<int64_t>& dims,
                                                      const Window& window) {
  if (window.dimensions.size() != dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the window has ", window.dimensions.size(),
                                                   " dimensions for rank ", dims.size()));
  }
  std::vector<int64_t> out(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    const WindowDimension& w = window.dimensions[d];
    if (w.stride < 1 || w.base_dilation < 1 || w.window_dilation < 1 || w.size < 0) {
      return absl::InvalidArgumentError("window strides, sizes and dilations must be positive");
    }
    out[d] = WindowedOutputSize(dims[d], w);
  }
  return out;
}

// Walks the input positions of one window; calls visit(linear input index)
// for the positions that hold an input element.
template <typename Visit>
absl::Status ForEachWindowElement(const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& in_strides, const Window& window,
                                  const std::vector<int64_t>& out_index, Visit&& visit) {
  const size_t rank = dims.size();
  std::vector<int64_t> w(rank, 0);
  int64_t total = 1;
  for (const WindowDimension& wd : window.dimensions) total *= wd.size;
  for (int64_t t = 0; t < total; ++t) {
    bool valid = true;
    int64_t linear = 0;
    for (size_t d = 0; d < rank && valid; ++d) {
      const WindowDimension& wd = window.dimensions[d];
      int64_t c = out_index[d] * wd.stride + w[d] * wd.window_dilation - wd.padding_low;
      if (c < 0 || c % wd.base_dilation != 0) {
        valid = false;
        break;
      }
      c /= wd.base_dilation;
      if (c >= dims[d]) valid = false;
      linear += c * in_strides[d];
    }
    if (valid) {
      if (auto s = visit(linear); !s.ok()) return s;
    }
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      if (++w[d] < window.dimensions[d].size) break;
      w[d] = 0;
    }
  }
  return absl::OkStatus();
}

bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (int64_t d = int64_t(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace

absl::StatusOr<Literal> ReduceWindow(absl::Span<const Literal* const> inputs,
                                     absl::Span<const Literal* const> inits, const Window& window,
                                     ScalarFunction& reducer) {
  if (auto s = CheckVariadic(inputs, inits, reducer); !s.ok()) return s;
  const size_t n = inputs.size();
  const std::vector<int64_t>& dims = inputs[0]->shape().dimensions();
  auto out_dims = WindowOutputDims(dims, window);
  if (!out_dims.ok()) return out_dims.status();
  std::vector<Literal> outputs;
  std::vector<int64_t> width(n);
  for (size_t i = 0; i < n; ++i) {
    outputs.emplace_back(Shape(inputs[i]->element_type(), *out_dims));
    width[i] = primitive_util::ByteWidth(inputs[i]->element_type());
  }
  const int64_t out_count = outputs[0].element_count();
  if (out_count == 0) return MakeResult(std::move(outputs));
  const std::vector<int64_t> in_strides = RowMajorStrides(dims);
  const ElementwiseKernel* kernel = n == 1 ? reducer.binary_kernel() : nullptr;
  const bool swapped = reducer.binary_swapped();
  Combiner combine(reducer, n);
  std::vector<Slot> acc(n);
  std::vector<void*> acc_ptr(n);
  std::vector<const void*> x_ptr(n);
  for (size_t i = 0; i < n; ++i) acc_ptr[i] = acc[i].bytes;
  std::vector<int64_t> out_index(dims.size(), 0);
  for (int64_t o = 0; o < out_count; ++o) {
    for (size_t i = 0; i < n; ++i) std::memcpy(acc[i].bytes, inits[i]->untyped_data(), size_t(width[i]));
    auto status = ForEachWindowElement(dims, in_strides, window, out_index, [&](int64_t linear) {
      if (kernel != nullptr) {
        const void* x = static_cast<const uint8_t*>(inputs[0]->untyped_data()) + linear * width[0];
        const void* ins[2] = {swapped ? x : acc_ptr[0], swapped ? acc_ptr[0] : x};
        kernel->Run(ins, acc_ptr[0], 1);
        return absl::OkStatus();
      }
      for (size_t i = 0; i < n; ++i) {
        x_ptr[i] = static_cast<const uint8_t*>(inputs[i]->untyped_data()) + linear * width[i];
      }
      return combine(acc_ptr.data(), x_ptr.data());
    });
    if (!status.ok()) return status;
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(static_cast<uint8_t*>(outputs[i].untyped_data()) + o * width[i], acc[i].bytes,
                  size_t(width[i]));
    }
    NextIndex(out_index, *out_dims);
  }
  return MakeResult(std::move(outputs));
}

absl::StatusOr<Literal> SelectAndScatter(const Literal& operand, const Literal& source,
                                         const Literal& init, const Window& window,
                                         ScalarFunction& select, ScalarFunction& scatter) {
  if (!operand.shape().IsArray() || !source.shape().IsArray() || init.element_count() != 1) {
    return absl::InvalidArgumentError("select-and-scatter needs arrays and a scalar init value");
  }
  if (select.parameter_count() != 2 || select.result_count() != 1 ||
      select.result_type(0) != PRED || scatter.parameter_count() != 2 ||
      scatter.result_count() != 1) {
    return absl::InvalidArgumentError(
        "select-and-scatter needs a binary select returning pred and a binary scatter");
  }
  const std::vector<int64_t>& dims = operand.shape().dimensions();
  auto window_dims = WindowOutputDims(dims, window);
  if (!window_dims.ok()) return window_dims.status();
  if (*window_dims != source.shape().dimensions()) {
    return absl::InvalidArgumentError(absl::StrCat("select-and-scatter: the source ",
                                                   source.shape().ToString(),
                                                   " does not match the windows of ",
                                                   operand.shape().ToString()));
  }
  const int64_t width = primitive_util::ByteWidth(operand.element_type());
  const int64_t source_width = primitive_util::ByteWidth(source.element_type());
  Literal out(Shape(init.element_type(), dims));
  const int64_t out_width = primitive_util::ByteWidth(init.element_type());
  FillElements(out.untyped_data(), init.untyped_data(), out.element_count(), out_width);
  const std::vector<int64_t> in_strides = RowMajorStrides(dims);
  const uint8_t* data = static_cast<const uint8_t*>(operand.untyped_data());
  const uint8_t* src = static_cast<const uint8_t*>(source.untyped_data());
  uint8_t* out_data = static_cast<uint8_t*>(out.untyped_data());
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t s = 0; s < source.element_count(); ++s) {
    int64_t selected = -1;
    auto status = ForEachWindowElement(dims, in_strides, window, index, [&](int64_t linear) {
      if (selected < 0) {
        selected = linear;
        return absl::OkStatus();
      }
      bool keep = false;
      const void* args[2] = {data + selected * width, data + linear * width};
      void* results[1] = {&keep};
      if (auto st = select.Call(args, results); !st.ok()) return st;
      if (!keep) selected = linear;
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
    if (selected >= 0) {
      void* target = out_data + selected * out_width;
      const void* args[2] = {target, src + s * source_width};
      void* results[1] = {target};
      if (auto st = scatter.Call(args, results); !st.ok()) return st;
    }
    NextIndex(index, *window_dims);
  }
  return out;
}

}  // namespace systolic::eval
