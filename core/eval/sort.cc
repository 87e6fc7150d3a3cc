#include "core/eval/sort.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/eval/element_ops.h"
#include "core/eval/strided_copy.h"

namespace systolic::eval {

absl::StatusOr<Literal> Sort(absl::Span<const Literal* const> operands, int64_t dimension,
                             ScalarFunction& comparator) {
  const size_t n = operands.size();
  if (n == 0) return absl::InvalidArgumentError("sort needs operands");
  const Shape& shape = operands[0]->shape();
  for (const Literal* l : operands) {
    if (!l->shape().IsArray() || l->shape().dimensions() != shape.dimensions()) {
      return absl::InvalidArgumentError("sort operands must be arrays of one shape");
    }
  }
  if (dimension < 0 || dimension >= shape.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("sort dimension ", dimension, " is out of range for ", shape.ToString()));
  }
  if (comparator.parameter_count() != int64_t(2 * n) || comparator.result_count() != 1 ||
      comparator.result_type(0) != PRED) {
    return absl::InvalidArgumentError(absl::StrCat("the sort comparator must take ", 2 * n,
                                                   " scalars and return pred"));
  }
  std::vector<Literal> outputs;
  for (const Literal* l : operands) outputs.push_back(l->Clone());
  const int64_t length = shape.dimensions(dimension);
  const std::vector<int64_t> strides = RowMajorStrides(shape.dimensions());
  const int64_t stride = strides[dimension];
  std::vector<int64_t> width(n);
  std::vector<const uint8_t*> data(n);
  for (size_t i = 0; i < n; ++i) {
    width[i] = primitive_util::ByteWidth(operands[i]->element_type());
    data[i] = static_cast<const uint8_t*>(operands[i]->untyped_data());
  }
  // Every slice along `dimension`: the other dimensions with the sort one
  // collapsed to 1.
  std::vector<int64_t> outer_dims = shape.dimensions();
  outer_dims[dimension] = 1;
  const std::vector<int64_t> outer_strides = RowMajorStrides(outer_dims);
  int64_t slices = 1;
  for (int64_t d : outer_dims) slices *= d;
  if (length <= 1 || shape.num_elements() == 0) {
    return n == 1 ? std::move(outputs[0]) : Literal::MakeTuple(std::move(outputs));
  }

  std::vector<int64_t> order(length);
  std::vector<const void*> args(2 * n);
  bool result = false;
  void* results[1] = {&result};
  absl::Status error;
  std::vector<uint8_t> scratch;
  for (int64_t s = 0; s < slices; ++s) {
    // Base offset of slice s in the full array.
    int64_t base = 0, rest = s;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      const int64_t i = rest / outer_strides[d];
      rest %= outer_strides[d];
      base += i * strides[d];
    }
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      if (!error.ok()) return false;
      for (size_t i = 0; i < n; ++i) {
        args[2 * i] = data[i] + (base + a * stride) * width[i];
        args[2 * i + 1] = data[i] + (base + b * stride) * width[i];
      }
      error = comparator.Call(args.data(), results);
      return error.ok() && result;
    });
    if (!error.ok()) return error;
    for (size_t i = 0; i < n; ++i) {
      uint8_t* out = static_cast<uint8_t*>(outputs[i].untyped_data());
      for (int64_t j = 0; j < length; ++j) {
        std::memcpy(out + (base + j * stride) * width[i], data[i] + (base + order[j] * stride) * width[i],
                    size_t(width[i]));
      }
    }
  }
  return n == 1 ? std::move(outputs[0]) : Literal::MakeTuple(std::move(outputs));
}

absl::StatusOr<Literal> TopK(const Literal& operand, int64_t k, bool largest) {
  const Shape& shape = operand.shape();
  if (!shape.IsArray() || shape.rank() < 1) {
    return absl::InvalidArgumentError("topk needs an array of rank >= 1");
  }
  const int64_t n = shape.dimensions(shape.rank() - 1);
  if (k < 0 || k > n) {
    return absl::InvalidArgumentError(absl::StrCat("topk: k=", k, " exceeds the last dimension ", n));
  }
  std::vector<int64_t> out_dims = shape.dimensions();
  out_dims.back() = k;
  Literal values(Shape(operand.element_type(), out_dims));
  Literal indices(Shape(S32, out_dims));
  const int64_t rows = n == 0 ? 0 : shape.num_elements() / n;
  return ArrayTypeSwitch(operand.element_type(), [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::Native;
    if constexpr (kIsComplex<T>) {
      return absl::InvalidArgumentError("topk does not apply to complex numbers");
    } else {
      auto in = operand.data<T>();
      auto out_v = values.data<T>();
      auto out_i = indices.data<int32_t>();
      std::vector<int64_t> order(n);
      auto key = [](T v) {
        if constexpr (kIsFloat<T>) {
          return TotalOrderKey(v);
        } else if constexpr (kIsIntLike<T> && !kIsSigned<T>) {
          return ToBits64(v) & IntegerMask<T>();
        } else {
          return SignExtend(v);
        }
      };
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = in.data() + r * n;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return largest ? key(row[a]) > key(row[b]) : key(row[a]) < key(row[b]);
        });
        for (int64_t j = 0; j < k; ++j) {
          out_v[r * k + j] = row[order[j]];
          out_i[r * k + j] = int32_t(order[j]);
        }
      }
      return Literal::MakeTupleOwned(std::move(values), std::move(indices));
    }
  });
}

}  // namespace systolic::eval
